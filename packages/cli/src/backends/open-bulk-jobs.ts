import { join } from 'node:path';
import { type BulkJobStore, createMemoryBulkJobStore, createSqlBulkJobStore } from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';

/**
 * Bulk jobs of the WebApp: in the store's PostgreSQL database (every instance sees them), or a SQLite file of
 * their own in the data dir (shared by the processes of this machine).
 */
export function openBulkJobStore(config: NimbusConfig, timeouts?: DatabaseTimeouts): BulkJobStore {
  if (config.store === 'memory') return createMemoryBulkJobStore();
  if (config.store === 'postgres')
    return createSqlBulkJobStore({
      dialect: 'postgres',
      connectionString: config.postgresUrl ?? '',
      ...timeouts,
    });
  return createSqlBulkJobStore({ dialect: 'sqlite', filename: join(config.dataDir, 'bulk-jobs.db') });
}
