import { consoleLogger, type Logger, NimBusError, NimBusErrorCode } from '@nimbus/core';
import { type ConnectionOptions, resolveConnectionSettings } from '../config/resolve-connection-settings.js';
import { createPostgresStateChangeNotifier } from './postgres-state-change-notifier.js';
import type { SqlNotifierTuning, SqlStateChangeNotifier } from './sql-state-change-notifier.js';
import { changeLogFilename, createSqliteStateChangeNotifier } from './sqlite-state-change-notifier.js';

export interface SqlStateChangeNotifierOptions extends ConnectionOptions, SqlNotifierTuning {
  readonly logger?: Logger;
  /** SQLite: the change-log file (default: beside the store file, `store.db` → `store-changes.db`). */
  readonly changeLogFilename?: string;
  /** SQLite: how often the change counter is read. Default 200 ms. */
  readonly pollMs?: number;
}

/**
 * Opens and starts the cross-process notifier for the store the same connection options describe: give it
 * to the store (`createSqlMessageStore({ notifier })`: its notification link reports every committed write) and to
 * the WebApp (it listens).
 */
export async function createSqlStateChangeNotifier(
  options: SqlStateChangeNotifierOptions = {},
): Promise<SqlStateChangeNotifier> {
  const settings = resolveConnectionSettings(options);
  const logger = options.logger ?? consoleLogger;
  const tuning = {
    ...(options.coalesceMs === undefined ? {} : { coalesceMs: options.coalesceMs }),
    ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
  };
  let notifier: SqlStateChangeNotifier;
  if (settings.dialect === 'postgres') {
    notifier = createPostgresStateChangeNotifier({
      connectionString: settings.connectionString,
      schema: settings.schema,
      logger,
      ...tuning,
    });
  } else {
    if (settings.filename === ':memory:' && options.changeLogFilename === undefined) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        "createSqlStateChangeNotifier: an in-memory SQLite store has no other processes to tell; use the store package's InProcessStateChangeNotifier, or pass changeLogFilename",
      );
    }
    notifier = createSqliteStateChangeNotifier({
      filename: options.changeLogFilename ?? changeLogFilename(settings.filename),
      logger,
      busyTimeoutMs: settings.busyTimeoutMs,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...tuning,
    });
  }
  await notifier.start();
  return notifier;
}
