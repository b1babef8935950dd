import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createSqlTransport, type SqlTransport } from '../src/index.js';
import { runTwoConsumers } from './multi-process/run-consumers.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL multi-process');

describe.runIf(runPg)('SQL transport on PostgreSQL across processes', () => {
  let database: TemporaryDatabase;
  let transport: SqlTransport | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-transport-pg-mp-'));
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_transport_mp');
  });
  afterAll(async () => {
    await transport?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two consumer processes share one database; a SIGKILLed consumer loses nothing', {
    timeout: 60_000,
  }, async () => {
    transport = await createSqlTransport({
      dialect: 'postgres',
      connectionString: database.url,
      schema: 'mp',
    });
    await runTwoConsumers(transport, { DIALECT: 'postgres', DATABASE_URL: database.url, SCHEMA: 'mp' }, [
      join(dir, 'a.jsonl'),
      join(dir, 'b.jsonl'),
    ]);
  });
});
