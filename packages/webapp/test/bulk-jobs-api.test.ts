import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { describeBulkJobsApi } from './support/bulk-suite.js';
import { cosmosStores, memoryStores, postgresStores, sqliteStores } from './support/store-factories.js';

const runPg = await shouldRunPostgresSuite('failure groups and bulk jobs on PostgreSQL');
describeBulkJobsApi(memoryStores);
describeBulkJobsApi(sqliteStores);
describeBulkJobsApi(cosmosStores);
describe.runIf(runPg)('on PostgreSQL', () => describeBulkJobsApi(postgresStores));
