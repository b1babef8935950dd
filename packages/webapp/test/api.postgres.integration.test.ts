import { createMemoryMessageStore } from '@nimbus/message-store';
import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { createSqlIdentityStore } from '../src/index.js';
import { describeWebAppApi } from './support/api-suite.js';

const runPg = await shouldRunPostgresSuite('webapp API with PostgreSQL identity');

describe.runIf(runPg)('PostgreSQL-backed identity', () => {
  // The message store stays in memory until the SQL provider lands; identity uses real PostgreSQL.
  describeWebAppApi({
    name: 'memory store + PostgreSQL identity',
    create: async () => {
      const database = await createTemporaryDatabase('nimbus_webapp_api');
      const identityStore = createSqlIdentityStore({ dialect: 'postgres', connectionString: database.url });
      return {
        store: createMemoryMessageStore({ env: {} }),
        identityStore,
        cleanup: async () => {
          await identityStore.close();
          await database.drop();
        },
      };
    },
  });
});
