import { describeMessageTrackingStoreConformance } from '@nimbus/message-store/conformance';
import { sqliteStoreUnderTest } from './support/sql-store-factories.js';

describeMessageTrackingStoreConformance('sqlite', sqliteStoreUnderTest);
