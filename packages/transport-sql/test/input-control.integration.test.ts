import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InputControl, MemoryInputControl, silentLogger } from '@nimbus/core';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';

/** The same answers from every `InputControl`: the memory one, and the SQL transport's on SQLite and PostgreSQL. */
function describeInputControl(
  name: string,
  open: () => Promise<{ control: InputControl; reopen?: () => Promise<InputControl> }>,
) {
  describe(`InputControl [${name}]`, () => {
    it('pauses and resumes an input (case-insensitive key, spelling kept) with who and when', async () => {
      const { control, reopen } = await open();
      expect([...(await control.pausedInputs())]).toEqual([]);
      await control.setPaused('Erp', { paused: true, by: 'Ada' });
      await control.setPaused('ERP', { paused: true, by: 'Bob' });
      expect([...(await control.pausedInputs())]).toEqual(['ERP']);
      const [state] = await control.inputStates();
      expect(state).toMatchObject({
        paused: true,
        changedBy: 'Bob',
        maxBacklog: null,
        maxCriticalTimeMs: null,
      });
      expect(Math.abs(state!.changedAt!.getTime() - Date.now())).toBeLessThan(60_000);
      // Kept across a restart of the process that set it (a new connection to the same database).
      const again = reopen ? await reopen() : control;
      expect([...(await again.pausedInputs())]).toEqual(['ERP']);
      await again.setPaused('erp', { paused: false, by: 'Ada' });
      expect([...(await control.pausedInputs())]).toEqual([]);
    });

    it('keeps thresholds apart from the pause flag; null clears one', async () => {
      const { control } = await open();
      await control.setThresholds('Billing', { maxBacklog: 10, maxCriticalTimeMs: 5_000 });
      await control.setPaused('Billing', { paused: true, by: 'Ada' });
      await control.setThresholds('Billing', { maxBacklog: null, maxCriticalTimeMs: 5_000 });
      expect(await control.inputStates()).toMatchObject([
        { input: 'Billing', paused: true, maxBacklog: null, maxCriticalTimeMs: 5_000 },
      ]);
    });

    it('replaces a check result per (endpoint, name) and lists them in order', async () => {
      const { control } = await open();
      const at = new Date('2026-01-01T00:00:00.000Z');
      await control.reportChecks('Erp', [{ name: 'db', healthy: true, reason: null, checkedAt: at }]);
      await control.reportChecks('Crm', [{ name: 'api', healthy: false, reason: 'down', checkedAt: at }]);
      await control.reportChecks('Erp', [{ name: 'db', healthy: false, reason: 'timeout', checkedAt: at }]);
      expect(await control.customChecks()).toEqual([
        { endpointId: 'Crm', name: 'api', healthy: false, reason: 'down', checkedAt: at },
        { endpointId: 'Erp', name: 'db', healthy: false, reason: 'timeout', checkedAt: at },
      ]);
    });
  });
}

describeInputControl('memory', async () => ({ control: new MemoryInputControl() }));

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
  describeInputControl('sqlite', async () => {
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
  describeInputControl('postgres', async () => {
    const schema = `c${++n}`;
    return { control: await pg(schema), reopen: () => pg(schema) };
  });
});
