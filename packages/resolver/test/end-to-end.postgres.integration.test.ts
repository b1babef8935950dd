import type { OpenMessageStore } from '@nimbus/message-store';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeResolverEndToEnd } from '../src/e2e/index.js';
import { onMemoryTransport } from './support/memory-transport.js';
import { sqlStoreFactory } from './support/sql-store.js';

const createSqlStore = await sqlStoreFactory('Resolver end to end (PostgreSQL store)');
const runPg =
  createSqlStore !== null && (await shouldRunPostgresSuite('Resolver end to end (PostgreSQL store)'));

describe.runIf(runPg)('PostgreSQL', () => {
  let db: TemporaryDatabase;
  let store: OpenMessageStore;

  beforeAll(async () => {
    db = await createTemporaryDatabase('nimbus_resolver_e2e');
    store = await createSqlStore!({
      dialect: 'postgres',
      connectionString: db.url,
      retentionSweep: false,
      env: {},
    });
  });

  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  // One database for the suite: every bus uses its own session and fresh event ids.
  describeResolverEndToEnd('PostgreSQL store', {
    openStore: async () => store,
    openTransport: onMemoryTransport,
  });
});
