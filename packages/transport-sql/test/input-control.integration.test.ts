import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryInputControl, silentLogger } from '@nimbus/core';
import { describeInputControlConformance } from '@nimbus/core/conformance';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSqlTransport } from '../src/index.js';

describeInputControlConformance('memory', async () => ({ control: new MemoryInputControl() }));

describe('SQL transport control state', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-input-control-'));
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
    rmSync(dir, { recursive: true, force: true });
  });
  let n = 0;
  const sqlite = async (path: string) => {
    const transport = await createSqlTransport(
      { dialect: 'sqlite', path },
      { logger: silentLogger, idleSessionSweepMs: 0 },
    );
    closers.push(() => transport.close());
    return transport.control;
  };
  describeInputControlConformance('sqlite', async () => {
    const path = join(dir, `t${++n}.db`);
    return { control: await sqlite(path), reopen: () => sqlite(path) };
  });
});

const runPg = await shouldRunPostgresSuite('transport-sql input control on PostgreSQL');
describe.runIf(runPg)('SQL transport control state on PostgreSQL', () => {
  let database: TemporaryDatabase;
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_input_control');
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await database?.drop();
  });
  let n = 0;
  const pg = async (schema: string) => {
    const transport = await createSqlTransport(
      { dialect: 'postgres', connectionString: database.url, schema, poolSize: 2 },
      { logger: silentLogger, idleSessionSweepMs: 0 },
    );
    closers.push(() => transport.close());
    return transport.control;
  };
  describeInputControlConformance('postgres', async () => {
    const schema = `c${++n}`;
    return { control: await pg(schema), reopen: () => pg(schema) };
  });
});
