import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { describeWebAppApi } from './support/api-suite.js';
import { postgresStoresIn } from './support/store-factories.js';

const runPg = await shouldRunPostgresSuite('webapp API on PostgreSQL');

describe.runIf(runPg)('PostgreSQL-backed WebApp', () => {
  describeWebAppApi(postgresStoresIn('nimbus_webapp_api'));
});
