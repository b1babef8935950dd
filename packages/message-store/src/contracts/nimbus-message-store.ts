import type { ServiceLifecycle } from '@nimbus/core';
import type { EndpointMetadataStore } from './endpoint-metadata-store.js';
import type { HeartbeatHistoryStore } from './heartbeat-history-store.js';
import type { MessageTrackingStore } from './message-tracking-store.js';
import type { MetricsStore } from './metrics-store.js';
import type { ServiceHealthStore } from './service-health-store.js';
import type { SubscriptionStore } from './subscription-store.js';

/** The aggregate every provider implements. Consumers should depend on the narrow contract they use. */
export interface NimBusMessageStore
  extends MessageTrackingStore,
    SubscriptionStore,
    EndpointMetadataStore,
    MetricsStore,
    ServiceHealthStore {}

/**
 * What a provider hands out: the aggregate, the heartbeat history, and the lifecycle shape (opened, so
 * `running`; `stop()`/`close()` release its resources, after which every call fails with `Closed`).
 */
export interface OpenMessageStore extends NimBusMessageStore, HeartbeatHistoryStore, ServiceLifecycle {
  readonly providerName: string;
  /** The same as `stop()`. */
  close(): Promise<void>;
}
