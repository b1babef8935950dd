import { createMemoryMessageStore } from '@nimbus/message-store';
import { describeResolverEndToEnd } from '@nimbus/resolver/e2e';
import { describeEngineEndToEnd, type EndToEndFixture } from '@nimbus/testing/e2e';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSqlTransport } from '../src/index.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL end to end');

describe.runIf(runPg)('SQL transport on PostgreSQL', () => {
  let database: TemporaryDatabase;
  let schemas = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_transport_e2e');
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Each case gets its own schema in one temporary database: empty, and cheap to create.
  async function postgresTransport(): Promise<EndToEndFixture> {
    const schema = `e2e_${++schemas}`;
    const connection = { dialect: 'postgres' as const, connectionString: database.url, schema, poolSize: 4 };
    return { transport: await createSqlTransport(connection), clock: null, cleanup: async () => undefined };
  }

  describeEngineEndToEnd('sql-postgres', postgresTransport);

  describeResolverEndToEnd('memory store, sql-postgres transport', {
    openStore: async () => createMemoryMessageStore({ env: {} }),
    openTransport: postgresTransport,
  });
});
