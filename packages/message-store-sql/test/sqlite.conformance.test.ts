import {
  describeEndpointMetadataStoreConformance,
  describeHeartbeatHistoryStoreConformance,
  describeMessageTrackingStoreConformance,
  describeMetricsStoreConformance,
  describeServiceHealthStoreConformance,
  describeSubscriptionStoreConformance,
} from '@nimbus/message-store/conformance';
import { sqliteStoreUnderTest } from './support/sql-store-factories.js';

describeMessageTrackingStoreConformance('sqlite', sqliteStoreUnderTest);
describeEndpointMetadataStoreConformance('sqlite', sqliteStoreUnderTest);
describeMetricsStoreConformance('sqlite', sqliteStoreUnderTest);
describeServiceHealthStoreConformance('sqlite', sqliteStoreUnderTest);
describeHeartbeatHistoryStoreConformance('sqlite', sqliteStoreUnderTest);
describeSubscriptionStoreConformance('sqlite', sqliteStoreUnderTest);
