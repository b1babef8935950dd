import type { OpenMessageStore } from '../contracts/nimbus-message-store.js';
import { describeEndpointMetadataStoreConformance } from './endpoint-metadata.js';
import type { ConformanceStoreFactory } from './factory.js';
import { describeHeartbeatHistoryStoreConformance } from './heartbeat-history.js';
import { describeStoreLifecycleConformance } from './lifecycle.js';
import { describeMessageTrackingStoreConformance } from './message-tracking.js';
import { describeMetricsStoreConformance } from './metrics.js';
import { describeServiceHealthStoreConformance } from './service-health.js';
import { describeSubscriptionStoreConformance } from './subscriptions.js';

/** Every contract's conformance suite against one provider: what a complete provider must pass. */
export function describeMessageStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<OpenMessageStore>,
): void {
  describeMessageTrackingStoreConformance(providerName, factory);
  describeEndpointMetadataStoreConformance(providerName, factory);
  describeMetricsStoreConformance(providerName, factory);
  describeServiceHealthStoreConformance(providerName, factory);
  describeHeartbeatHistoryStoreConformance(providerName, factory);
  describeSubscriptionStoreConformance(providerName, factory);
  describeStoreLifecycleConformance(providerName, factory);
}
