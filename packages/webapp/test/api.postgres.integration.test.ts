import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { createSqlIdentityStore } from '../src/index.js';
import { describeWebAppApi } from './support/api-suite.js';

const runPg = await shouldRunPostgresSuite('webapp API on PostgreSQL');

describe.runIf(runPg)('PostgreSQL-backed WebApp', () => {
  describeWebAppApi({
    name: 'PostgreSQL store + PostgreSQL identity (same database)',
    create: async () => {
      const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
      const database = await createTemporaryDatabase('nimbus_webapp_api');
      const store = await createSqlMessageStore({
        dialect: 'postgres',
        connectionString: database.url,
        env: {},
        retentionSweep: false,
      });
      const identityStore = createSqlIdentityStore({ dialect: 'postgres', connectionString: database.url });
      return {
        store,
        identityStore,
        cleanup: async () => {
          await identityStore.close();
          await store.close();
          await database.drop();
        },
      };
    },
  });
});
