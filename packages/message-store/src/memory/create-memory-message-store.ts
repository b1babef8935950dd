import { type Clock, systemClock } from '@nimbus/core';
import { ComposedMessageStore } from '../composed-message-store.js';
import type { OpenMessageStore } from '../contracts/nimbus-message-store.js';
import type { MessageStateChangeNotifier } from '../contracts/state-change-notifier.js';
import type { StorageProviderRegistration } from '../contracts/storage-provider.js';
import { decorateStore } from '../decorators/decorate-store.js';
import { notifyStateChanges } from '../decorators/notify-state-changes.js';
import { traceStoreCalls } from '../decorators/trace-store-calls.js';
import { parseRetentionOptions, type RetentionOptions } from '../retention.js';
import { createMemoryEndpointMetadata } from './endpoint-metadata.js';
import { createEndpointViews } from './endpoint-views.js';
import { createMemoryFailureGroups } from './failure-groups.js';
import { createMemoryHeartbeatHistory } from './heartbeat-history.js';
import { createMemoryMetrics } from './metrics.js';
import { createMemoryServiceHealth } from './service-health.js';
import { createMemoryState } from './state.js';
import { createMemorySubscriptions } from './subscriptions.js';
import { createTrackingHistory } from './tracking-history.js';
import { createTrackingLookups } from './tracking-lookups.js';
import { createRetentionSweep } from './tracking-retention.js';
import { createTrackingSearch } from './tracking-search.js';
import { createTrackingWrites } from './tracking-writes.js';

export const MEMORY_PROVIDER_NAME = 'memory';

export interface MemoryMessageStoreOptions {
  /** Source of every timestamp the store stamps (default: system clock). */
  readonly clock?: Clock;
  /** Code options; applied after the environment and therefore win. */
  readonly retention?: Partial<RetentionOptions>;
  /** Environment read for NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Told after each persisted change (the notification link of the decorator chain). */
  readonly notifier?: MessageStateChangeNotifier;
}

/** The in-memory provider: the reference implementation every conformance suite passes against. */
export function createMemoryMessageStore(options: MemoryMessageStoreOptions = {}): OpenMessageStore {
  const retention = parseRetentionOptions({
    env: options.env ?? process.env,
    ...(options.retention ? { options: options.retention } : {}),
  });
  const clock = options.clock ?? systemClock;
  const state = createMemoryState(clock, retention);
  const writes = createTrackingWrites(state);
  const history = createTrackingHistory(state);
  const store = new ComposedMessageStore(MEMORY_PROVIDER_NAME, {
    statusWrites: writes,
    lifecycle: writes,
    lookups: createTrackingLookups(state),
    search: createTrackingSearch(state),
    failureGroups: createMemoryFailureGroups(state),
    views: createEndpointViews(state),
    history,
    audits: history,
    retention: createRetentionSweep(state),
    subscriptions: createMemorySubscriptions(state),
    metadata: createMemoryEndpointMetadata(state),
    metrics: createMemoryMetrics(state),
    serviceHealth: createMemoryServiceHealth(state),
    heartbeatHistory: createMemoryHeartbeatHistory(state),
  });
  return decorateStore<OpenMessageStore>(store, [
    traceStoreCalls(clock),
    ...(options.notifier ? [notifyStateChanges(options.notifier)] : []),
  ]);
}

/** Registers the in-memory provider (tests and single-process demos; nothing survives a restart). */
export function memoryStorageProvider(options: MemoryMessageStoreOptions = {}): StorageProviderRegistration {
  return {
    providerName: MEMORY_PROVIDER_NAME,
    capabilities: { supportsCrossAccountCopy: false },
    open: async () => createMemoryMessageStore(options),
  };
}
