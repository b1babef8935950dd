export type { ConformanceSetup, ConformanceStoreFactory, StoreUnderTest } from './factory.js';
export { T0 } from './harness.js';
export { describeMessageTrackingStoreConformance } from './message-tracking.js';
