import {
  type MigrationMode,
  type MigrationProgress,
  type MigrationRunResult,
  type NamedMigration,
  runMigrations,
  type SqlConnection,
  type SqlDialect,
  type SqlExecutor,
  tableJournal,
} from '@nimbus/sql';

export interface MigrateOptions {
  readonly onProgress?: (progress: MigrationProgress) => void;
}

export interface ReliabilityTable {
  readonly connection: SqlConnection;
  readonly dialect: SqlDialect;
  /** Checked names, as given. */
  readonly tableName: string;
  readonly schema: string | undefined;
  /** For errors, e.g. `outbox table "nimbus_outbox"`. */
  readonly placement: string;
}

/**
 * Runs a table's migrations on the one runner of `@nimbus/sql`, with its journal `<tableName>_migrations` beside
 * it (so several outboxes or inboxes in one schema each keep their own).
 */
export function migrateTable(
  table: ReliabilityTable,
  migrations: readonly NamedMigration<SqlExecutor>[],
  mode: MigrationMode,
  options: MigrateOptions,
): Promise<MigrationRunResult> {
  const journal = tableJournal({
    connection: table.connection,
    dialect: table.dialect,
    table: `${table.tableName}_migrations`,
    schema: table.schema ?? null,
    placement: table.placement,
  });
  return runMigrations(journal, {
    mode,
    migrations,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
