import {
  type Clock,
  consoleLogger,
  type Logger,
  type Readiness,
  type StopContext,
  stopChild,
  systemClock,
} from '@nimbus/core';
import {
  type MessageStateChangeNotifier,
  noopStateChangeNotifier,
  type OpenMessageStore,
  parseRetentionOptions,
  type RetentionOptions,
  type RetentionSweepResult,
  type StorageProviderCapabilities,
  type StorageProviderRegistration,
} from '@nimbus/message-store';
import {
  ComposedMessageStore,
  decorateStore,
  type MessageStoreSlices,
  notifyStateChanges,
  traceStoreCalls,
  translateStoreErrors,
} from '@nimbus/message-store/provider';
import { type ConnectionOptions, resolveConnectionSettings } from './config/resolve-connection-settings.js';
import type { MigrationMode, SqlDialectName } from './config/sql-store-settings.js';
import { openDialect } from './dialect/open-dialect.js';
import { type MigrationProgress, type MigrationRunResult, runMigrations } from './migrations/migrator.js';
import { type RetentionSweeper, startRetentionSweeper } from './retention/retention-sweeper.js';
import { DEFAULT_SWEEP_BATCH_SIZE } from './retention/sweep-expired.js';
import { checkStoreReadiness } from './store/readiness.js';
import { sqlStoreSlices } from './store/sql-store-slices.js';
import type { StoreContext } from './store/store-context.js';
import { translateTransientError } from './store/transient-errors.js';

export interface RetentionSweepOptions {
  /** Default 5 minutes. */
  readonly intervalMs?: number;
  /** Rows per DELETE statement; default 500. */
  readonly batchSize?: number;
  readonly onSweep?: (result: RetentionSweepResult) => void;
}

export interface SqlMessageStoreOptions extends ConnectionOptions {
  /** Default `AutoApply`. */
  readonly migrationMode?: MigrationMode;
  /** Told before and after each migration applied at start (the CLI prints it). */
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Told after each committed status change. */
  readonly notifier?: MessageStateChangeNotifier;
  /** Code values win over `NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS`. */
  readonly retention?: Partial<RetentionOptions>;
  /** The background sweeper; on by default, `false` turns it off (call `sweepExpired` yourself). */
  readonly retentionSweep?: RetentionSweepOptions | false;
}

export interface SqlMessageStore extends OpenMessageStore {
  readonly dialect: SqlDialectName;
  readonly capabilities: StorageProviderCapabilities;
  /** What the start-up migration step did. */
  readonly migrations: MigrationRunResult;
  /** Ready when the database answers and the schema is current; never throws. */
  checkReadiness(): Promise<Readiness>;
}

export const SQL_STORE_CAPABILITIES: StorageProviderCapabilities = Object.freeze({
  supportsCrossAccountCopy: false,
});

/** The composed SQL store plus what only the SQL provider knows; `stop`/`close` release once. */
class SqlComposedStore extends ComposedMessageStore implements SqlMessageStore {
  readonly capabilities = SQL_STORE_CAPABILITIES;
  readonly dialect: SqlDialectName;
  readonly migrations: MigrationRunResult;

  constructor(
    providerName: string,
    slices: MessageStoreSlices,
    release: (context: StopContext) => Promise<void>,
    private readonly details: {
      dialect: SqlDialectName;
      migrations: MigrationRunResult;
      checkReadiness: () => Promise<Readiness>;
    },
  ) {
    super(providerName, slices, release);
    this.dialect = details.dialect;
    this.migrations = details.migrations;
  }

  checkReadiness(): Promise<Readiness> {
    return this.details.checkReadiness();
  }
}

export function sqlProviderName(dialect: SqlDialectName): string {
  return dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
}

/**
 * Opens the SQL message store: resolves the connection (never from argv), applies or verifies
 * migrations, and returns every store contract backed by one connection (SQLite) or pool (PostgreSQL).
 */
export async function createSqlMessageStore(options: SqlMessageStoreOptions = {}): Promise<SqlMessageStore> {
  const settings = resolveConnectionSettings(options);
  const retention = parseRetentionOptions({
    env: options.env ?? process.env,
    options: options.retention ?? {},
  });
  const dialect = openDialect(settings);
  const providerName = sqlProviderName(settings.dialect);
  const clock = options.clock ?? systemClock;
  const context: StoreContext = {
    dialect,
    clock,
    notifier: options.notifier ?? noopStateChangeNotifier,
    logger: options.logger ?? consoleLogger,
    retention,
  };

  let migrations: MigrationRunResult;
  try {
    migrations = await runMigrations(dialect, {
      mode: options.migrationMode ?? 'AutoApply',
      ...(options.onMigrationProgress ? { onProgress: options.onMigrationProgress } : {}),
      now: () => clock.now(),
    });
  } catch (error) {
    await dialect.destroy();
    throw translateTransientError(error, dialect, providerName);
  }

  const sweepOptions = options.retentionSweep === false ? null : (options.retentionSweep ?? {});
  let sweeper: RetentionSweeper | null = null;
  const composed = new SqlComposedStore(
    providerName,
    sqlStoreSlices(context, sweepOptions?.batchSize ?? DEFAULT_SWEEP_BATCH_SIZE),
    async (context) => {
      if (sweeper) await stopChild(sweeper, context);
      await dialect.destroy();
    },
    {
      dialect: settings.dialect,
      migrations,
      checkReadiness: () => checkStoreReadiness(dialect, providerName),
    },
  );
  // The one decorator chain: tracing outermost, then error translation, then notification after success.
  const store = decorateStore<SqlMessageStore>(composed, [
    traceStoreCalls(clock),
    translateStoreErrors((error) => translateTransientError(error, dialect, providerName)),
    notifyStateChanges(context.notifier, { logger: context.logger }),
  ]);
  if (sweepOptions !== null) {
    sweeper = startRetentionSweeper({
      sweep: () => store.sweepExpired(),
      clock,
      logger: context.logger,
      ...(sweepOptions.intervalMs === undefined ? {} : { intervalMs: sweepOptions.intervalMs }),
      ...(sweepOptions.onSweep ? { onSweep: sweepOptions.onSweep } : {}),
    });
  }
  return store;
}

/** The provider registration: exactly one may be registered per application (`resolveSingleProvider`). */
export function sqlStorageProvider(options: SqlMessageStoreOptions = {}): StorageProviderRegistration {
  const settings = resolveConnectionSettings(options);
  return {
    providerName: sqlProviderName(settings.dialect),
    capabilities: SQL_STORE_CAPABILITIES,
    open: () => createSqlMessageStore(options),
  };
}
