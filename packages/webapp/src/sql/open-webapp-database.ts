import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { cachingStatements, openPostgresPool, openSqliteDatabase, type StatementTimeouts } from '@nimbus/sql';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';

/** Where a WebApp-owned set of tables (identity, bulk jobs, alerts) lives. */
export type WebAppDatabaseOptions =
  | {
      readonly dialect: 'sqlite';
      /** A file of its own (better-sqlite3 waits for locks synchronously; one writer per file per process). */
      readonly filename: string;
    }
  | (StatementTimeouts & {
      readonly dialect: 'postgres';
      readonly connectionString: string;
      /** PostgreSQL schema holding the tables (default `nimbus`). */
      readonly schema?: string;
    });

export interface OpenedWebAppDatabase<DB> {
  /** Unscoped: for DDL and `sql` templates that name the schema themselves. */
  readonly root: Kysely<DB>;
  /** Scoped to the schema on PostgreSQL. */
  readonly db: Kysely<DB>;
  readonly schema: string | null;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Opens the database of one WebApp store: SQLite through better-sqlite3 (statements prepared once), or a
 * PostgreSQL pool with error listeners on the pool and every client, so a database restart (57P01) does not
 * kill the WebApp. `what` names the store in the error for an unsafe schema name.
 */
export function openWebAppDatabase<DB>(
  options: WebAppDatabaseOptions,
  what: string,
  pool: { readonly max: number; readonly applicationName: string },
): OpenedWebAppDatabase<DB> {
  const schema = options.dialect === 'postgres' ? (options.schema ?? 'nimbus') : null;
  if (schema !== null && !SCHEMA_NAME.test(schema))
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `${what} schema '${schema}' is not a safe SQL identifier.`,
    );
  const root = new Kysely<DB>({
    dialect:
      options.dialect === 'sqlite'
        ? new SqliteDialect({ database: cachingStatements(openSqliteDatabase(options.filename)) })
        : new PostgresDialect({
            pool: openPostgresPool({
              connectionString: options.connectionString,
              ...pool,
              ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
              ...(options.lockTimeoutMs ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
            }),
          }),
  });
  return { root, db: schema === null ? root : root.withSchema(schema), schema };
}
