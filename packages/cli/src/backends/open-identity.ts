import type { MigrationMode } from '@nimbus/sql';
import { createMemoryIdentityStore, createSqlIdentityStore, type IdentityStore } from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { webAppDatabase } from './webapp-database.js';

/** WebApp users: beside the store (a SQLite file in the data dir, or the store's PostgreSQL database). */
export function openIdentityStore(
  config: NimbusConfig,
  timeouts?: DatabaseTimeouts,
  migrationMode?: MigrationMode,
): IdentityStore {
  const database = webAppDatabase(config, 'identity', { timeouts, migrationMode });
  return database === null ? createMemoryIdentityStore() : createSqlIdentityStore(database);
}
