import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { describeBulkJobsApi } from './support/bulk-suite.js';
import { memoryStores, postgresStores, sqliteStores } from './support/store-factories.js';

const runPg = await shouldRunPostgresSuite('failure groups and bulk jobs on PostgreSQL');
describeBulkJobsApi(memoryStores);
describeBulkJobsApi(sqliteStores);
describe.runIf(runPg)('on PostgreSQL', () => describeBulkJobsApi(postgresStores));
