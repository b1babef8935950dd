import type { MigrationMode, SqlDialect } from '@nimbus/sql';

/** Which database engine backs the store (the one dialect type of `@nimbus/sql`). */
export type SqlDialectName = SqlDialect;

/** `AutoApply` runs pending migrations at start; `VerifyOnly` refuses to start while any is unapplied. */
export type { MigrationMode };

export const DEFAULT_SCHEMA = 'nimbus';
export const DEFAULT_SQLITE_PATH = '.nimbus/store.db';
export const DEFAULT_CONNECTION_NAME = 'postgres';

/** The fully resolved connection settings the store opens with. */
export type SqlConnectionSettings =
  | {
      readonly dialect: 'sqlite';
      readonly filename: string;
      readonly schema: string;
      readonly busyTimeoutMs: number;
    }
  | {
      readonly dialect: 'postgres';
      readonly connectionString: string;
      /** Where the connection string came from, for error messages (never the string itself). */
      readonly source: string;
      readonly schema: string;
      readonly poolSize: number;
      /** 0: the server's setting. */
      readonly statementTimeoutMs: number;
      readonly lockTimeoutMs: number;
    };
