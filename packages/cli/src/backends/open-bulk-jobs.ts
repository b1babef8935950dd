import type { MigrationMode } from '@nimbus/sql';
import { type BulkJobStore, createMemoryBulkJobStore, createSqlBulkJobStore } from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { webAppDatabase } from './webapp-database.js';

/**
 * Bulk jobs of the WebApp: in the store's PostgreSQL database (every instance sees them), or a SQLite file of
 * their own in the data dir (shared by the processes of this machine).
 */
export function openBulkJobStore(
  config: NimbusConfig,
  timeouts?: DatabaseTimeouts,
  migrationMode?: MigrationMode,
): BulkJobStore {
  const database = webAppDatabase(config, 'bulkJobs', { timeouts, migrationMode });
  return database === null ? createMemoryBulkJobStore() : createSqlBulkJobStore(database);
}
