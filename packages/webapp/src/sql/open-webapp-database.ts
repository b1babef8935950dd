import { type MigrationMode, openKysely, type StatementTimeouts, sqlName } from '@nimbus/sql';
import type { Kysely } from 'kysely';

/** Where a WebApp-owned set of tables (identity, bulk jobs, alerts) lives. */
export type WebAppDatabaseOptions = (
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
    })
) & {
  /**
   * What `initialize()` does with the tables' migrations: `AutoApply` (default) applies what is pending,
   * `VerifyOnly` runs no DDL and fails with `SchemaOutOfDateError` while one is missing.
   */
  readonly migrationMode?: MigrationMode;
};

export interface OpenedWebAppDatabase<DB> {
  /** Unscoped: for transactions and `sql` templates that name the schema themselves. */
  readonly root: Kysely<DB>;
  /** Scoped to the schema on PostgreSQL. */
  readonly db: Kysely<DB>;
  readonly schema: string | null;
  /** Where the tables are, for messages: the SQLite file or the PostgreSQL schema. */
  readonly where: string;
}

/**
 * Opens the database of one WebApp store through the one Kysely opener of `@nimbus/sql` (SQLite with statements
 * prepared once, or a PostgreSQL pool that survives a database restart). `what` names the store in the error for
 * an unsafe schema name.
 */
export function openWebAppDatabase<DB>(
  options: WebAppDatabaseOptions,
  what: string,
  pool: { readonly max: number; readonly applicationName: string },
): OpenedWebAppDatabase<DB> {
  const schema =
    options.dialect === 'postgres' ? sqlName(options.schema ?? 'nimbus', `${what} schema`) : null;
  const { db: root } = openKysely<DB>(
    options.dialect === 'sqlite'
      ? { dialect: 'sqlite', filename: options.filename }
      : {
          dialect: 'postgres',
          connectionString: options.connectionString,
          ...pool,
          ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
          ...(options.lockTimeoutMs ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
        },
  );
  const where = schema === null ? (options as { filename: string }).filename : `schema "${schema}"`;
  return { root, db: schema === null ? root : root.withSchema(schema), schema, where };
}
