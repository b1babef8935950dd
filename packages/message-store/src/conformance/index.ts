export type { ConformanceSetup, ConformanceStoreFactory, StoreUnderTest } from './factory.js';
