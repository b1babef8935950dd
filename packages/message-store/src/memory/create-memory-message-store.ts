import { type Clock, systemClock } from '@nimbus/core';
import type { OpenMessageStore } from '../contracts/nimbus-message-store.js';
import type { StorageProviderRegistration } from '../contracts/storage-provider.js';
import { parseRetentionOptions, type RetentionOptions } from '../retention.js';
import { createMemoryEndpointMetadata } from './endpoint-metadata.js';
import { createEndpointViews } from './endpoint-views.js';
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
}

/** The in-memory provider: the reference implementation every conformance suite passes against. */
export function createMemoryMessageStore(options: MemoryMessageStoreOptions = {}): OpenMessageStore {
  const retention = parseRetentionOptions({
    env: options.env ?? process.env,
    ...(options.retention ? { options: options.retention } : {}),
  });
  const state = createMemoryState(options.clock ?? systemClock, retention);
  return {
    providerName: MEMORY_PROVIDER_NAME,
    ...createTrackingWrites(state),
    ...createTrackingLookups(state),
    ...createTrackingSearch(state),
    ...createEndpointViews(state),
    ...createTrackingHistory(state),
    ...createRetentionSweep(state),
    ...createMemorySubscriptions(state),
    ...createMemoryEndpointMetadata(state),
    ...createMemoryMetrics(state),
    ...createMemoryServiceHealth(state),
    ...createMemoryHeartbeatHistory(state),
    async close() {},
  };
}

/** Registers the in-memory provider (tests and single-process demos; nothing survives a restart). */
export function memoryStorageProvider(options: MemoryMessageStoreOptions = {}): StorageProviderRegistration {
  return {
    providerName: MEMORY_PROVIDER_NAME,
    capabilities: { supportsCrossAccountCopy: false },
    open: async () => createMemoryMessageStore(options),
  };
}
