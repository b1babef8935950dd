import { Kysely, PostgresDialect as KyselyPostgresDialect, type SqlBool, sql } from 'kysely';
import pg from 'pg';
import type { StoreDatabase } from '../schema/database.js';
import { TableMappingPlugin } from '../schema/table-mapping-plugin.js';
import type { SqlDialect, StoreDb } from './sql-dialect.js';

export interface PostgresDialectOptions {
  readonly connectionString: string;
  readonly schema: string;
  readonly poolSize: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** SQLSTATEs worth a back-off and retry: connection loss, lock/serialization conflicts, shutdown, overload. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57014', // query_canceled (statement timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
]);
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Connection terminated unexpectedly/i,
];

/** PostgreSQL through a pg pool; tables live in their own schema. */
export function createPostgresDialect(options: PostgresDialectOptions): SqlDialect {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    // Epoch-millisecond columns are bigint; they fit a JS number exactly, so read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db: StoreDb = new Kysely<StoreDatabase>({
    dialect: new KyselyPostgresDialect({ pool }),
    plugins: [new TableMappingPlugin({ schema: options.schema })],
  });

  return {
    name: 'postgres',
    db,
    placement: `schema "${options.schema}"`,
    atomic: (work) => db.transaction().setIsolationLevel('read committed').execute(work),
    forUpdate: (query) => query.forUpdate(),
    async lockMigrations(tx) {
      await sql`select pg_advisory_xact_lock(hashtext(${`nimbus.schema.${options.schema}`}))`.execute(tx);
    },
    async ensureSchema(tx) {
      await tx.schema.createSchema(options.schema).ifNotExists().execute();
    },
    indexName: (name) => name,
    jsonText: (column, path) =>
      sql<
        string | null
      >`jsonb_extract_path_text(${sql.ref(column)}::jsonb, ${sql.join(path.map((p) => sql`${p}`))})`,
    containsText: (haystack, needle) => sql<SqlBool>`strpos(coalesce(${haystack}, ''), ${needle}) > 0`,
    async tableExists(table) {
      const result = await sql<{ found: number }>`
        select 1 as found from information_schema.tables where table_schema = ${options.schema} and table_name = ${table}`.execute(
        db,
      );
      return result.rows.length > 0;
    },
    isTransient(error) {
      const e = error as { code?: unknown; message?: unknown } | null;
      const code = typeof e?.code === 'string' ? e.code : '';
      if (code.startsWith('08') || TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))
        return true;
      const message = typeof e?.message === 'string' ? e.message : '';
      return TRANSIENT_MESSAGES.some((pattern) => pattern.test(message));
    },
    isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === '23505',
    destroy: () => db.destroy(),
  };
}
