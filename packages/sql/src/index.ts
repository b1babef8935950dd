export { Backoff, type BackoffOptions, RECONNECT_BACKOFF, sleep } from './backoff.js';
export { inTransaction, type SqlConnection, sqlExecutorOf } from './connection.js';
export { isSqlDialect, SQL_DIALECTS, type SqlDialect } from './dialect.js';
export {
  classifyDriverError,
  type DriverErrorClassification,
  type DriverErrorReason,
  describeDriverError,
  isRetryableDriverError,
} from './driver-errors.js';
export { DriverNotInstalledError, loadBetterSqlite3, loadPg } from './drivers.js';
export { type Row, type SqlExecutor, toPostgresPlaceholders } from './executor.js';
export { type KyselyTarget, kyselyOver, type OpenedKysely, openKysely } from './kysely/open-kysely.js';
export {
  isSchemaOutOfDate,
  MIGRATION_MODES,
  type MigrationJournal,
  type MigrationMode,
  type MigrationProgress,
  type MigrationRunResult,
  type NamedMigration,
  type RunMigrationsOptions,
  runMigrations,
  SchemaOutOfDateError,
} from './migrations.js';
export { OutageLog, type OutageLogger } from './outage-log.js';
export { type PgListenerEvents, type PgListenerOptions, ReconnectingPgListener } from './pg-listener.js';
export {
  openPostgresClient,
  openPostgresPool,
  type PostgresConnectionOptions,
  type PostgresPoolOptions,
  postgresTypes,
  quotePostgresIdentifier,
  type StatementTimeouts,
} from './postgres.js';
export { isSqlName, MAX_SQL_NAME_LENGTH, sqlName } from './sql-name.js';
export { openSqliteDatabase, type SqliteOpenOptions } from './sqlite.js';
export { SqliteFileGate, sqliteFileGate } from './sqlite-file-gate.js';
export {
  isDatabaseOutage,
  type StartWhenReachableOptions,
  startWhenDatabaseAnswers,
} from './start-when-reachable.js';
export { cachingStatements, type PreparingDatabase } from './statement-cache.js';
export { type TableJournalOptions, tableJournal } from './table-journal.js';
