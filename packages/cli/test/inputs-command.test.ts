import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createSqlTransport } from '@nimbus/transport-sql';
import { afterAll, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/program.js';

// #26: `nimbus inputs status|pause|resume`, the Monitoring page's pause from a script, audited.
const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-inputs-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = async (...args: string[]) => {
  const lines: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { out: (line) => lines.push(line), err: (text) => errors.push(text) };
  const code = await runCli(['node', 'nimbus', 'inputs', ...args, '--data-dir', dataDir], io);
  return { code, lines, errors };
};

it('pauses and resumes an input through the transport control state, audited; an unknown input exits 4', async () => {
  expect(
    await runCli(['node', 'nimbus', 'store', 'migrate', '--data-dir', dataDir], {
      out: () => {},
      err: () => {},
    }),
  ).toBe(0);
  const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
  await transport.applyTopology({ endpoints: ['Erp'], routes: [] });
  try {
    expect(await run('pause', 'Erp', '--comment', 'ERP maintenance')).toMatchObject({
      code: 0,
      lines: ['Erp: paused'],
    });
    expect([...(await transport.control.pausedInputs())]).toEqual(['Erp']);
    const status = await run('status', '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.lines[0]!)).toEqual([
      { input: 'Erp', backlog: 0, deadLettered: 0, paused: true },
    ]);
    expect(await run('resume', 'Erp')).toMatchObject({ code: 0, lines: ['Erp: resumed'] });
    expect([...(await transport.control.pausedInputs())]).toEqual([]);
    expect((await run('pause', 'Nope')).code).toBe(4);
  } finally {
    await transport.close();
  }
  const store = await createSqlMessageStore({
    dialect: 'sqlite',
    filename: join(dataDir, 'transport.db'),
    env: {},
    retentionSweep: false,
  });
  try {
    const audits = await store.searchAudits({ filter: {}, continuationToken: null, maxItems: 20 });
    const types = audits.audits.map((a) => a.audit.auditType);
    expect(types).toEqual(expect.arrayContaining(['PauseInput', 'ResumeInput']));
    expect(audits.audits.find((a) => a.audit.auditType === 'PauseInput')?.audit.comment).toBe(
      'ERP maintenance',
    );
  } finally {
    await store.close();
  }
});
