import { describeTransportConformance } from '@nimbus/core/conformance';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSqlTransport } from '../src/index.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL conformance');

describe.runIf(runPg)('SQL transport on PostgreSQL', () => {
  let database: TemporaryDatabase;
  let schemas = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_transport_conf');
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Each case gets its own schema in one temporary database: empty, and cheap to create.
  describeTransportConformance('sql-postgres', async () => {
    const transport = await createSqlTransport(
      {
        dialect: 'postgres',
        connectionString: database.url,
        schema: `conformance_${++schemas}`,
        poolSize: 4,
      },
      { lockDurationMs: 400, maxDeliveryCount: 3 },
    );
    return { transport, cleanup: async () => undefined };
  });
});
