import { describeTransportConformance } from '@nimbus/core/conformance';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
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
    const schema = `conformance_${++schemas}`;
    const connection = { dialect: 'postgres' as const, connectionString: database.url, schema, poolSize: 4 };
    const options = { lockDurationMs: 1_200, maxDeliveryCount: 3 };
    const transport = await createSqlTransport(connection, options);
    return {
      transport,
      async corruptStoredHeaders(input, messageId, rawHeaders) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          await client.query(
            `UPDATE "${schema}"."messages" SET headers = $1 WHERE input = $2 AND message_id = $3`,
            [rawHeaders, input, messageId],
          );
        } finally {
          await client.end();
        }
      },
      openConsumer: ({ maxBatchBytes }) =>
        createSqlTransport({ ...connection, poolSize: 2 }, { ...options, maxBatchBytes }),
      cleanup: async () => undefined,
    };
  });
});
