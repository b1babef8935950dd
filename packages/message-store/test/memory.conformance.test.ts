import {
  type ConformanceSetup,
  describeEndpointMetadataStoreConformance,
  describeHeartbeatHistoryStoreConformance,
  describeMessageTrackingStoreConformance,
  describeMetricsStoreConformance,
  describeServiceHealthStoreConformance,
  describeSubscriptionStoreConformance,
} from '@nimbus/message-store/conformance';
import { createMemoryMessageStore } from '../src/index.js';

const memory = async ({ clock, retention }: ConformanceSetup) => ({
  store: createMemoryMessageStore({ clock, retention, env: {} }),
  cleanup: async () => {},
});

describeMessageTrackingStoreConformance('memory', memory);
describeEndpointMetadataStoreConformance('memory', memory);
describeMetricsStoreConformance('memory', memory);
describeServiceHealthStoreConformance('memory', memory);
describeHeartbeatHistoryStoreConformance('memory', memory);
describeSubscriptionStoreConformance('memory', memory);
