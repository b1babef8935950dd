import { isRetryableDriverError, openKysely } from '@nimbus/sql';
import { type SqlBool, sql } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';
import { TableMappingPlugin } from '../schema/table-mapping-plugin.js';
import type { SqlDialect, StoreDb } from './sql-dialect.js';

export interface SqliteDialectOptions {
  readonly filename: string;
  /** Table name prefix, e.g. `nimbus_`. */
  readonly prefix: string;
  /** How long a writer waits for another process's write lock before SQLITE_BUSY. */
  readonly busyTimeoutMs: number;
}

/**
 * SQLite through better-sqlite3 in WAL mode: many readers, one writer at a time, across processes.
 * Keep one store per database file per process: better-sqlite3 waits for locks synchronously, so two
 * connections of one process contending for the write lock would stall each other until the timeout.
 */
export function createSqliteDialect(options: SqliteDialectOptions): SqlDialect {
  const opened = openKysely<StoreDatabase>(
    { dialect: 'sqlite', filename: options.filename, busyTimeoutMs: options.busyTimeoutMs },
    { plugins: [new TableMappingPlugin({ prefix: options.prefix })] },
  );
  const db: StoreDb = opened.db;
  const raw = opened.sqlite!;

  return {
    name: 'sqlite',
    db,
    placement: `message store tables (prefix "${options.prefix}") in ${options.filename}`,
    // Kysely's SQLite driver hands out its single connection under a mutex, so work on `conn`
    // is never interleaved with other statements of this store.
    atomic: (work) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await work(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          if (raw.inTransaction) await sql`rollback`.execute(conn);
          throw error;
        }
      }),
    forUpdate: (query) => query,
    lockMigrations: async () => undefined,
    ensureSchema: async () => undefined,
    indexName: (name) => `${options.prefix}${name}`,
    jsonText: (column, path) =>
      sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${path.join('.')}`})`,
    containsText: (haystack, needle) => sql<SqlBool>`instr(coalesce(${haystack}, ''), ${needle}) > 0`,
    async tableExists(table) {
      const row = raw
        .prepare("select 1 as found from sqlite_master where type = 'table' and name = ?")
        .get(`${options.prefix}${table}`);
      return row !== undefined;
    },
    isRetryable: isRetryableDriverError,
    isUniqueViolation: (error) =>
      sqliteCode(error).startsWith('SQLITE_CONSTRAINT_UNIQUE') ||
      sqliteCode(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
    destroy: () => db.destroy(),
  };
}

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}
