export { describeMessageStoreConformance } from './all-suites.js';
export { describeEndpointMetadataStoreConformance } from './endpoint-metadata.js';
export type { ConformanceSetup, ConformanceStoreFactory, StoreUnderTest } from './factory.js';
export { T0 } from './harness.js';
export { describeHeartbeatHistoryStoreConformance } from './heartbeat-history.js';
export { describeMessageTrackingStoreConformance } from './message-tracking.js';
export { describeMetricsStoreConformance } from './metrics.js';
export { describeServiceHealthStoreConformance } from './service-health.js';
export { describeSubscriptionStoreConformance } from './subscriptions.js';
