/** The one `SchemaOutOfDateError` of `@nimbus/sql` (code `SchemaOutOfDate`), re-exported where it was. */
export { SchemaOutOfDateError } from '@nimbus/sql';
export {
  createSqlColocatedProjection,
  type SqlColocatedProjectionOptions,
} from './colocated/sql-colocated-projection.js';
export { type ConnectionOptions, resolveConnectionSettings } from './config/resolve-connection-settings.js';
export {
  DEFAULT_CONNECTION_NAME,
  DEFAULT_SCHEMA,
  DEFAULT_SQLITE_PATH,
  type MigrationMode,
  type SqlConnectionSettings,
  type SqlDialectName,
} from './config/sql-store-settings.js';
export {
  createSqlMessageStore,
  type RetentionSweepOptions,
  SQL_STORE_CAPABILITIES,
  type SqlMessageStore,
  type SqlMessageStoreOptions,
  sqlProviderName,
  sqlStorageProvider,
} from './create-sql-message-store.js';
export { type MigrateSqlStoreOptions, migrateSqlMessageStore } from './migrate-sql-store.js';
export { ALL_MIGRATIONS } from './migrations/all-migrations.js';
export type { Migration } from './migrations/migration.js';
export { type MigrationProgress, type MigrationRunResult, runMigrations } from './migrations/migrator.js';
export { decodeChanges, encodeChanges, MAX_PAYLOAD_BYTES } from './notify/change-payloads.js';
export {
  createSqlStateChangeNotifier,
  type SqlStateChangeNotifierOptions,
} from './notify/create-sql-state-change-notifier.js';
export { stateChangeChannel } from './notify/postgres-state-change-notifier.js';
export type { SqlNotifierTuning, SqlStateChangeNotifier } from './notify/sql-state-change-notifier.js';
export { changeLogFilename } from './notify/sqlite-state-change-notifier.js';
export {
  createRetentionSweeper,
  DEFAULT_SWEEP_INTERVAL_MS,
  type RetentionSweeper,
  startRetentionSweeper,
} from './retention/retention-sweeper.js';
