import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Header } from '@nimbus/core';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createSqlTransport } from '@nimbus/transport-sql';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { type CliIo, runCli } from '../src/program.js';

// Issue 12.7: `nimbus dead-letters list|show|requeue|purge` over the transport's operator views, audited.

function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (text) => errors.push(text) };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dlq-cli-'));
  dirs.push(dataDir);
  expect(await runCli(['node', 'nimbus', 'store', 'migrate', '--data-dir', dataDir], capture())).toBe(0);
  const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
  await transport.applyTopology({ endpoints: ['Erp'], routes: [] });
  // A message without MessageType or EventId, dead-lettered the way the engine does it.
  await transport.publish([
    {
      source: 'Erp',
      messages: [
        {
          messageId: 'm-1',
          sessionId: 's-1',
          correlationId: 'c-1',
          headers: { [Header.To]: 'Erp' },
          body: '{"n":1}',
        },
      ],
    },
  ]);
  const session = await transport.acceptSession('Erp', { sessionId: 's-1', waitMs: 0 });
  const [received] = await session!.receive({ max: 1, waitMs: 0 });
  await session!.deadLetter(received!, {
    reason: "Invalid message: missing required header 'MessageType'",
    description: 'no type',
  });
  await session!.release();
  const run = async (...args: string[]) => {
    const io = capture();
    const code = await runCli(['node', 'nimbus', 'dead-letters', ...args, '--data-dir', dataDir], io);
    return { code, ...io };
  };
  const audits = async () => {
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename: join(dataDir, 'transport.db'), // co-located: the store lives in the transport's file
      env: {},
      retentionSweep: false,
    });
    try {
      return await store.getMessageAudits('dead-letters/Erp');
    } finally {
      await store.close();
    }
  };
  return { transport, run, audits };
}

describe('nimbus dead-letters', () => {
  it('lists and shows a dead letter with its reason, requeues it into its session and audits the action', async () => {
    const s = await setup();
    try {
      const list = await s.run('list', 'Erp', '--json');
      expect(list.code).toBe(0);
      const [dead] = JSON.parse(list.lines[0]!) as { id: string; reason: string; messageId: string }[];
      expect(dead).toMatchObject({
        messageId: 'm-1',
        reason: "Invalid message: missing required header 'MessageType'",
      });
      const shown = await s.run('show', 'Erp', dead!.id);
      expect(shown.code).toBe(0);
      expect(shown.lines.join('\n')).toContain('body: {"n":1}');
      expect((await s.run('show', 'Erp', 'nope')).code).not.toBe(0);
      expect((await s.run('requeue', 'Erp')).code).toBe(ExitCode.Usage);
      const requeued = await s.run('requeue', 'Erp', dead!.id, '--comment', 'header fixed upstream');
      expect(requeued.code).toBe(0);
      expect(requeued.lines[0]).toContain('Requeued 1 dead letter at Erp');
      expect((await s.transport.peek('Erp', { sessionId: 's-1' })).map((m) => m.messageId)).toEqual(['m-1']);
      const [row] = await s.audits();
      expect(row).toMatchObject({ auditType: 'RequeueDeadLetters', comment: 'header fixed upstream' });
    } finally {
      await s.transport.close();
    }
  });

  it('purge needs --yes, then deletes every dead letter of the input and audits it', async () => {
    const s = await setup();
    try {
      expect((await s.run('purge', 'Erp')).code).toBe(ExitCode.Usage);
      const purged = await s.run('purge', 'Erp', '--yes');
      expect(purged.code).toBe(0);
      expect(purged.lines[0]).toContain('Purged 1 dead letter at Erp');
      expect((await s.run('list', 'Erp')).lines).toEqual(['No dead letters at Erp.']);
      expect((await s.audits()).map((a) => a.auditType)).toEqual(['PurgeDeadLetters']);
    } finally {
      await s.transport.close();
    }
  });
});
