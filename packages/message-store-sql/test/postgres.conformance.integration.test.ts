import { describeMessageStoreConformance } from '@nimbus/message-store/conformance';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresStoreUnderTest } from './support/sql-store-factories.js';

const runPg = await shouldRunPostgresSuite('message-store-sql conformance (PostgreSQL)');

describe.runIf(runPg)('PostgreSQL message store', () => {
  let database: TemporaryDatabase;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_store_conformance');
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Each test gets its own schema in this database, so retention sweeps only see that test's rows.
  describeMessageStoreConformance(
    'postgres',
    postgresStoreUnderTest(() => database.url),
  );
});
