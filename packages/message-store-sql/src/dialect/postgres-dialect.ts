import { isRetryableDriverError, openKysely, type StatementTimeouts } from '@nimbus/sql';
import { type SqlBool, sql } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';
import { TableMappingPlugin } from '../schema/table-mapping-plugin.js';
import type { SqlDialect } from './sql-dialect.js';

export interface PostgresDialectOptions extends StatementTimeouts {
  readonly connectionString: string;
  readonly schema: string;
  readonly poolSize: number;
}

/** PostgreSQL through a pg pool; tables live in their own schema. */
export function createPostgresDialect(options: PostgresDialectOptions): SqlDialect {
  // Connection errors nobody awaits are handled by the pool (the client is discarded); queries report theirs.
  const { db } = openKysely<StoreDatabase>(
    {
      dialect: 'postgres',
      connectionString: options.connectionString,
      max: options.poolSize,
      applicationName: 'nimbus-store',
      numericAsNumber: true,
      ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
      ...(options.lockTimeoutMs ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    },
    { plugins: [new TableMappingPlugin({ schema: options.schema })] },
  );

  return {
    name: 'postgres',
    db,
    placement: `message store schema "${options.schema}"`,
    atomic: (work) => db.transaction().setIsolationLevel('read committed').execute(work),
    forUpdate: (query) => query.forUpdate(),
    async lockMigrations(tx) {
      // DDL may wait for locks and build indexes for long: the pool's statement and lock timeouts (bounded waits
      // of the services) do not apply to a migration transaction.
      await sql`set local statement_timeout = 0`.execute(tx);
      await sql`set local lock_timeout = 0`.execute(tx);
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
    isRetryable: isRetryableDriverError,
    isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === '23505',
    destroy: () => db.destroy(),
  };
}
