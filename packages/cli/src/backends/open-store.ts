import type { Logger } from '@nimbus/core';
import {
  createMemoryMessageStore,
  type MessageStateChangeNotifier,
  type OpenMessageStore,
  withStateChangeNotifications,
} from '@nimbus/message-store';
import { createSqlMessageStore, type MigrationMode, type MigrationProgress } from '@nimbus/message-store-sql';
import { isSchemaOutOfDate } from '@nimbus/sql';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { ensureDataDir } from './data-dir.js';
import { openCosmosStore } from './open-cosmos-store.js';

export interface OpenStoreOptions {
  readonly migrationMode?: MigrationMode;
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
  readonly logger: Logger;
  /** The retention sweeper runs in long-lived services only. */
  readonly retentionSweep?: boolean;
  /** `--store cosmos` without a configured account starts the local Cosmos server (`nimbus dev`). */
  readonly localCosmosWhenUnconfigured?: boolean;
  /** Status lines (which Cosmos server is used). */
  readonly print?: (line: string) => void;
  /** Bounded statement and lock waits (the long-running services); absent: the driver's defaults. */
  readonly timeouts?: DatabaseTimeouts;
  /** Told after each committed write (the store is the one emitter of state changes; see openNotifier). */
  readonly notifier?: MessageStateChangeNotifier;
}

export type CliStore = OpenMessageStore;

/** The store's options for `timeouts`: both PostgreSQL settings, and the lock wait as SQLite's busy timeout. */
function sqlTimeouts(timeouts: DatabaseTimeouts | undefined) {
  if (!timeouts) return {};
  return {
    statementTimeoutMs: timeouts.statementTimeoutMs,
    lockTimeoutMs: timeouts.lockTimeoutMs,
    ...(timeouts.lockTimeoutMs > 0 ? { busyTimeoutMs: timeouts.lockTimeoutMs } : {}),
  };
}

/** Opens the configured message store (SQLite file under the data dir, PostgreSQL, Cosmos DB or memory). */
export async function openStore(config: NimbusConfig, options: OpenStoreOptions): Promise<CliStore> {
  const notifier = options.notifier ? { notifier: options.notifier } : {};
  if (config.store === 'memory') {
    return createMemoryMessageStore(notifier);
  }
  if (config.store === 'cosmos') {
    const store = await openCosmosStore(options);
    return options.notifier ? withStateChangeNotifications(store, options.notifier, options) : store;
  }
  if (config.store === 'sqlite') ensureDataDir(config.dataDir);
  try {
    return await createSqlMessageStore({
      dialect: config.store,
      ...(config.store === 'sqlite'
        ? { filename: config.storeSqlitePath }
        : { connectionString: config.postgresUrl ?? '' }),
      ...sqlTimeouts(options.timeouts),
      migrationMode: options.migrationMode ?? 'AutoApply',
      ...(options.onMigrationProgress ? { onMigrationProgress: options.onMigrationProgress } : {}),
      retentionSweep: options.retentionSweep ? {} : false,
      logger: options.logger,
      ...notifier,
    });
  } catch (error) {
    if (isSchemaOutOfDate(error)) throw new CliError(error.message, ExitCode.SchemaOutOfDate);
    throw new CliError(
      `Could not open the ${config.store} message store: ${(error as Error).message}`,
      ExitCode.Failed,
      { cause: error },
    );
  }
}
