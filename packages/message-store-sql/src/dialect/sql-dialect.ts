import type { Expression, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { SqlDialectName } from '../config/sql-store-settings.js';
import type { StoreDatabase } from '../schema/database.js';

export type StoreDb = Kysely<StoreDatabase>;

/** What differs between the SQL engines; everything else is written once against Kysely. */
export interface SqlDialect {
  readonly name: SqlDialectName;
  /** Connection with the table mapping (schema or prefix) applied. */
  readonly db: StoreDb;
  /** Human-readable place of the tables, e.g. `schema "nimbus"` or `table prefix "nimbus_"`. */
  readonly placement: string;
  /**
   * Runs `work` in one transaction that holds the write lock needed for a read-then-write:
   * `BEGIN IMMEDIATE` on SQLite (the whole database), READ COMMITTED plus row locks on PostgreSQL.
   */
  atomic<T>(work: (tx: StoreDb) => Promise<T>): Promise<T>;
  /** Locks the selected rows until commit where the engine supports row locks (`FOR UPDATE`). */
  forUpdate<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** Takes the lock that serialises migration runs (inside an `atomic` transaction). */
  lockMigrations(tx: StoreDb): Promise<void>;
  /** Creates the schema if the engine has schemas. */
  ensureSchema(tx: StoreDb): Promise<void>;
  /** Physical name of an index (SQLite index names are database-wide, so they carry the prefix). */
  indexName(name: string): string;
  /** Text at `path` inside a JSON text column (null when absent). */
  jsonText(column: string, path: readonly string[]): RawBuilder<string | null>;
  /** Case-sensitive literal substring test (no LIKE wildcards). */
  containsText(haystack: Expression<string | null>, needle: string): RawBuilder<SqlBool>;
  /** Does the physical table exist? */
  tableExists(table: string): Promise<boolean>;
  /** The driver error may succeed when tried again (`classifyDriverError` of `@nimbus/sql` decides). */
  isRetryable(error: unknown): boolean;
  isUniqueViolation(error: unknown): boolean;
  destroy(): Promise<void>;
}
