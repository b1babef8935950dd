import { type Clock, consoleLogger, type Logger, type Readiness, systemClock } from '@nimbus/core';
import {
  type MessageStateChangeNotifier,
  noopStateChangeNotifier,
  type OpenMessageStore,
  parseRetentionOptions,
  ResolutionStatus,
  type RetentionOptions,
  type RetentionSweepResult,
  type StorageProviderCapabilities,
  type StorageProviderRegistration,
  type TrackingRetention,
  type TrackingStatusWrites,
  type UnresolvedEventWrite,
} from '@nimbus/message-store';
import { type ConnectionOptions, resolveConnectionSettings } from './config/resolve-connection-settings.js';
import type { MigrationMode, SqlDialectName } from './config/sql-store-settings.js';
import { openDialect } from './dialect/open-dialect.js';
import { type MigrationProgress, type MigrationRunResult, runMigrations } from './migrations/migrator.js';
import { type RetentionSweeper, startRetentionSweeper } from './retention/retention-sweeper.js';
import { DEFAULT_SWEEP_BATCH_SIZE, sweepExpiredRows } from './retention/sweep-expired.js';
import { AuditsAndReports } from './store/audits-and-reports.js';
import { bindMethods } from './store/bind-methods.js';
import { SqlEndpointMetadataStore } from './store/endpoint-metadata-store.js';
import { EndpointViews } from './store/endpoint-views.js';
import { EventLookups } from './store/event-lookups.js';
import { EventSearch } from './store/event-search.js';
import { SqlHeartbeatHistoryStore } from './store/heartbeat-history-store.js';
import { LifecycleOperations } from './store/lifecycle.js';
import { MessageHistory } from './store/message-history.js';
import { SqlMetricsStore } from './store/metrics-store.js';
import { checkStoreReadiness } from './store/readiness.js';
import { SqlServiceHealthStore } from './store/service-health-store.js';
import { tryCompletePending, writeStatus } from './store/status-writes.js';
import type { StoreContext } from './store/store-context.js';
import { SqlSubscriptionStore } from './store/subscription-store.js';
import { translateTransientError, translateTransientErrors } from './store/transient-errors.js';

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
  const sweepExpired = (now?: Date) =>
    sweepExpiredRows(
      context,
      now?.getTime() ?? clock.now(),
      sweepOptions?.batchSize ?? DEFAULT_SWEEP_BATCH_SIZE,
    );

  const status =
    (s: ResolutionStatus) =>
    (eventId: string, sessionId: string, endpointId: string, content: UnresolvedEventWrite) =>
      writeStatus(context, { eventId, sessionId, endpointId }, s, content);
  const statusWrites: TrackingStatusWrites & TrackingRetention = {
    uploadPendingMessage: status(ResolutionStatus.Pending),
    uploadDeferredMessage: status(ResolutionStatus.Deferred),
    uploadFailedMessage: status(ResolutionStatus.Failed),
    uploadDeadletteredMessage: status(ResolutionStatus.DeadLettered),
    uploadUnsupportedMessage: status(ResolutionStatus.Unsupported),
    uploadSkippedMessage: status(ResolutionStatus.Skipped),
    uploadCompletedMessage: status(ResolutionStatus.Completed),
    tryCompletePendingMessage: (eventId, sessionId, endpointId, expected, content) =>
      tryCompletePending(context, { eventId, sessionId, endpointId }, expected, content),
    sweepExpired,
  };

  const history = bindMethods(new SqlHeartbeatHistoryStore(context));
  let sweeper: RetentionSweeper | null = null;
  let closed = false;
  const store: SqlMessageStore = {
    ...statusWrites,
    ...bindMethods<Pick<EventLookups, keyof EventLookups>>(new EventLookups(context)),
    ...bindMethods<Pick<EndpointViews, keyof EndpointViews>>(new EndpointViews(context)),
    ...bindMethods<Pick<EventSearch, keyof EventSearch>>(new EventSearch(context)),
    ...bindMethods<Pick<LifecycleOperations, keyof LifecycleOperations>>(new LifecycleOperations(context)),
    ...bindMethods<Pick<MessageHistory, keyof MessageHistory>>(new MessageHistory(context)),
    ...bindMethods<Pick<AuditsAndReports, keyof AuditsAndReports>>(new AuditsAndReports(context)),
    ...bindMethods<Pick<SqlSubscriptionStore, keyof SqlSubscriptionStore>>(new SqlSubscriptionStore(context)),
    ...bindMethods<Pick<SqlEndpointMetadataStore, keyof SqlEndpointMetadataStore>>(
      new SqlEndpointMetadataStore(context),
    ),
    ...bindMethods<Pick<SqlMetricsStore, keyof SqlMetricsStore>>(new SqlMetricsStore(context)),
    ...bindMethods<Pick<SqlServiceHealthStore, keyof SqlServiceHealthStore>>(
      new SqlServiceHealthStore(context),
    ),
    getHeartbeatUptimeDays: history.getHeartbeatUptimeDays,
    upsertHeartbeatUptimeDays: history.upsertHeartbeatUptimeDays,
    getHeartbeatGaps: history.getHeartbeatGaps,
    upsertHeartbeatGaps: history.upsertHeartbeatGaps,
    tryClaimHeartbeatHistoryFold: history.tryClaimHeartbeatHistoryFold,
    pruneHeartbeatHistory: history.pruneHeartbeatHistory,
    prunesHeartbeatHistoryAutomatically: history.prunesHeartbeatHistoryAutomatically,
    providerName,
    dialect: settings.dialect,
    capabilities: SQL_STORE_CAPABILITIES,
    migrations,
    checkReadiness: () => checkStoreReadiness(dialect, providerName),
    async close() {
      if (closed) return;
      closed = true;
      await sweeper?.stop();
      await dialect.destroy();
    },
  };
  const translated = translateTransientErrors(store, dialect, providerName);
  if (sweepOptions !== null) {
    sweeper = startRetentionSweeper({
      sweep: () => translated.sweepExpired(),
      clock,
      logger: context.logger,
      ...(sweepOptions.intervalMs === undefined ? {} : { intervalMs: sweepOptions.intervalMs }),
      ...(sweepOptions.onSweep ? { onSweep: sweepOptions.onSweep } : {}),
    });
  }
  return translated;
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
