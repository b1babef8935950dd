import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEnvelope, MessageType, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { createMemoryMessageStore, type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createSqlTransport } from '@nimbus/transport-sql';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runCli } from '../src/program.js';
import { argv, capture, dirsRemovedAfterAll, remoteTokenEnv, withEnv } from './support/in-process-cli.js';
import { startTestWebApp } from './support/test-web-app.js';

// `nimbus events resubmit` of a DeadLettered event runs it after later events of its session: only with
// --out-of-order, locally and through a remote WebApp.

async function seedDeadLettered(store: NimBusMessageStore, eventId: string) {
  const base = { enqueuedTimeUtc: new Date(), eventTypeId: 'CustomerUpserted', from: 'Crm', to: 'Erp' };
  await store.storeMessage({
    ...base,
    eventId,
    messageId: `${eventId}-req`,
    endpointId: 'Erp',
    sessionId: 'C-7',
    messageType: MessageType.EventRequest,
    messageContent: {
      eventContent: { eventTypeId: 'CustomerUpserted', eventJson: '{"customerId":"C-7","name":"Ada"}' },
      errorContent: null,
    },
  });
  await store.writeStatus({
    key: { endpointId: 'Erp', eventId, sessionId: 'C-7' },
    status: ResolutionStatus.DeadLettered,
    content: { ...base, messageType: MessageType.ErrorResponse, lastMessageId: `${eventId}-err` },
  });
}

const dirs = dirsRemovedAfterAll();

describe('nimbus events resubmit --out-of-order', () => {
  it('on the local SQLite store: refused without it (exit 1, nothing sent), sent with the acknowledgement and audited with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-out-of-order-'));
    dirs.push(dataDir);
    expect(await runCli(argv('store', 'migrate', '--data-dir', dataDir), capture())).toBe(0);
    const open = () =>
      createSqlMessageStore({
        dialect: 'sqlite',
        filename: join(dataDir, 'transport.db'), // co-located: the store lives in the transport's file
        env: {},
        retentionSweep: false,
      });
    const store = await open();
    await seedDeadLettered(store, 'ev-dead');
    await store.close();
    const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
    await transport.applyTopology(topologyFromPlatform(platform));

    const refused = capture();
    expect(await runCli(argv('events', 'resubmit', 'Erp', 'ev-dead', '--data-dir', dataDir), refused)).toBe(
      ExitCode.Failed,
    );
    expect(refused.errors.join('')).toContain('runs it after later events of the session');
    expect(refused.errors.join('')).toContain('--out-of-order');
    expect((await transport.counts('Erp')).active).toBe(0);

    const done = capture();
    const args = argv(
      'events',
      'resubmit',
      'Erp',
      'ev-dead',
      '--out-of-order',
      '--json',
      '--data-dir',
      dataDir,
    );
    expect(await runCli(args, done)).toBe(0);
    const session = await transport.acceptSession('Erp', { sessionId: 'C-7', waitMs: 100 });
    const [message] = await session!.receive({ max: 10, waitMs: 100 });
    await session!.release();
    expect(decodeEnvelope(message!)).toMatchObject({
      messageType: MessageType.ResubmissionRequest,
      eventId: 'ev-dead',
      acknowledgeOutOfOrder: true,
    });
    await transport.close();
    const reopened = await open();
    const audits = await reopened.getMessageAudits('ev-dead');
    await reopened.close();
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.data ?? '{}')).toMatchObject({
      action: 'resubmit',
      acknowledgeOutOfOrder: true,
    });
  });

  it('through a remote WebApp: the 409 is explained with the option to pass; with it the WebApp sends the acknowledgement', async () => {
    const store = createMemoryMessageStore();
    const app = await startTestWebApp(store);
    const { transport, url } = app;
    try {
      await seedDeadLettered(store, 'ev-remote-dead');
      const remote = await remoteTokenEnv(url);

      const refused = capture();
      expect(
        await withEnv(remote, () => runCli(argv('events', 'resubmit', 'Erp', 'ev-remote-dead'), refused)),
      ).toBe(ExitCode.Failed);
      expect(refused.errors.join('')).toContain('409');
      expect(refused.errors.join('')).toContain('Pass --out-of-order to confirm');
      expect((await transport.counts('Erp')).active).toBe(0);

      const done = capture();
      expect(
        await withEnv(remote, () =>
          runCli(argv('events', 'resubmit', 'Erp', 'ev-remote-dead', '--out-of-order'), done),
        ),
      ).toBe(0);
      const [sent] = await transport.peek('Erp', { max: 10 });
      expect(sent?.headers).toMatchObject({ EventId: 'ev-remote-dead', AcknowledgeOutOfOrder: 'true' });
    } finally {
      await app.close();
    }
  });
});
