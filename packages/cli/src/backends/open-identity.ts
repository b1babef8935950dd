import { createMemoryIdentityStore, createSqlIdentityStore, type IdentityStore } from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { ensureDataDir } from './data-dir.js';

/** WebApp users: beside the store (a SQLite file in the data dir, or the store's PostgreSQL database). */
export function openIdentityStore(config: NimbusConfig, timeouts?: DatabaseTimeouts): IdentityStore {
  if (config.store === 'memory') return createMemoryIdentityStore();
  if (config.store === 'postgres') {
    return createSqlIdentityStore({
      dialect: 'postgres',
      connectionString: config.postgresUrl ?? '',
      ...timeouts,
    });
  }
  ensureDataDir(config.dataDir);
  return createSqlIdentityStore({ dialect: 'sqlite', filename: config.identitySqlitePath });
}
