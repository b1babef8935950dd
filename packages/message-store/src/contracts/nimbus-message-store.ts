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

/** What a provider hands out: the aggregate, the heartbeat history, and a way to release resources. */
export interface OpenMessageStore extends NimBusMessageStore, HeartbeatHistoryStore {
  readonly providerName: string;
  close(): Promise<void>;
}
