import { describeMessageStoreConformance } from '@nimbus/message-store/conformance';
import { sqliteStoreUnderTest } from './support/sql-store-factories.js';

describeMessageStoreConformance('sqlite', sqliteStoreUnderTest);
