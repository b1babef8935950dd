import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSqlIdentityStore } from '../src/index.js';
import { describeIdentityStore } from './support/identity-store-suite.js';

const runPg = await shouldRunPostgresSuite('webapp identity store (PostgreSQL)');

describe.runIf(runPg)('PostgreSQL identity store', () => {
  let database: TemporaryDatabase;
  let n = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_webapp');
  });
  afterAll(async () => {
    await database?.drop();
  });

  describeIdentityStore('PostgreSQL', async () => {
    // One schema per test keeps tests independent inside the suite's database.
    const store = createSqlIdentityStore({
      dialect: 'postgres',
      connectionString: database.url,
      schema: `identity_${n++}`,
    });
    await store.initialize();
    return store;
  });
});
