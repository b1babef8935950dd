import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { createSqlTransport, type SqlTransport, type SqlTransportOptions } from '../src/index.js';
import { describeSqlBehaviour } from './behaviour.js';
import { describeIdleSessionCleanup } from './idle-sessions.js';
import { describeSettleGroup } from './settle-group.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL behaviour');

describe.runIf(runPg)('SQL transport on PostgreSQL', () => {
  let database: TemporaryDatabase;
  let opened: SqlTransport[] = [];
  let schemaCounter = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_transport_sql');
  });
  afterEach(async () => {
    for (const transport of opened) await transport.close();
    opened = [];
  });
  afterAll(async () => {
    await database?.drop();
  });
  const openFresh = async (options?: SqlTransportOptions): Promise<SqlTransport> => {
    // A fresh schema per test keeps tests independent inside one temporary database.
    const transport = await createSqlTransport(
      { dialect: 'postgres', connectionString: database.url, schema: `t${++schemaCounter}`, poolSize: 4 },
      options,
    );
    opened.push(transport);
    return transport;
  };
  describeSqlBehaviour(openFresh);
  describeIdleSessionCleanup(openFresh);
  describe('group commit across sessions', () => describeSettleGroup(openFresh));
});
