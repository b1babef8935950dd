import { join } from 'node:path';
import type { MigrationMode } from '@nimbus/sql';
import type { WebAppDatabaseOptions, WebAppTableSet } from '@nimbus/webapp';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { ensureDataDir } from './data-dir.js';

/** Where each set of WebApp tables lives beside a SQLite store: a file of its own in the data dir. */
export function webAppSqlitePath(config: NimbusConfig, set: WebAppTableSet): string {
  if (set === 'identity') return config.identitySqlitePath;
  return join(config.dataDir, set === 'alerts' ? 'alerts.db' : 'bulk-jobs.db');
}

/**
 * The database of one set of WebApp tables: the store's PostgreSQL database (schema `nimbus`), or a SQLite file in
 * the data dir for every other store. Null for the memory store (the WebApp keeps them in memory).
 */
export function webAppDatabase(
  config: NimbusConfig,
  set: WebAppTableSet,
  options: { readonly timeouts?: DatabaseTimeouts; readonly migrationMode?: MigrationMode } = {},
): WebAppDatabaseOptions | null {
  if (config.store === 'memory') return null;
  const mode = options.migrationMode ? { migrationMode: options.migrationMode } : {};
  if (config.store === 'postgres')
    return { dialect: 'postgres', connectionString: config.postgresUrl ?? '', ...options.timeouts, ...mode };
  ensureDataDir(config.dataDir);
  return { dialect: 'sqlite', filename: webAppSqlitePath(config, set), ...mode };
}

/** Where a set of WebApp tables is, for messages (never the connection string). */
export function describeWebAppDatabase(config: NimbusConfig, set: WebAppTableSet): string {
  return config.store === 'postgres'
    ? 'PostgreSQL (NIMBUS_POSTGRES_URL)'
    : `SQLite ${webAppSqlitePath(config, set)}`;
}
