import {
  createEnvelope,
  encodeEnvelope,
  MessageEngine,
  type MessageHandlingContext,
  MessageType,
  PermanentFailureError,
  SessionProcessor,
  silentLogger,
  TransientError,
  uuidv7,
} from '@nimbus/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteFixture, sqliteFixture } from './fixtures.js';

const SESSIONS = 5;
const PER_SESSION = 30;

function request(sessionId: string, index: number) {
  return encodeEnvelope(
    createEnvelope({
      messageId: uuidv7(),
      to: 'Erp',
      from: 'Crm',
      sessionId,
      messageType: MessageType.EventRequest,
      eventId: `${sessionId}-${index}`,
      eventTypeId: 'CustomerChanged',
      content: {
        eventContent: { eventTypeId: 'CustomerChanged', eventJson: JSON.stringify({ index }) },
        errorContent: null,
      },
    }),
  );
}

let fixture: SqliteFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** Publishes SESSIONS × PER_SESSION requests, then lets a batched engine handle them all with `handle`. */
async function runBatches(handle: (context: MessageHandlingContext) => Promise<void>) {
  fixture = sqliteFixture();
  const transport = await fixture.open({ lockDurationMs: 5_000 });
  await transport.applyTopology({ endpoints: ['Crm', 'Erp'], routes: [] });
  const engine = new MessageEngine({ endpointId: 'Erp', logger: silentLogger, handler: { handle } });
  const batchSizes: number[] = [];
  const processor = new SessionProcessor({
    transport,
    input: 'Erp',
    maxConcurrentSessions: 3,
    receiveBatchSize: 10,
    sessionIdleTimeoutMs: 50,
    logger: silentLogger,
    handler: {
      onSessionAccepted: (session) => engine.onSessionAccepted(session),
      handleMessage: (session, message) => engine.handleMessage(session, message),
      handleMessages(session, messages) {
        batchSizes.push(messages.length);
        return engine.handleMessages(session, messages);
      },
    },
  });
  for (let index = 0; index < PER_SESSION; index++) {
    const messages = Array.from({ length: SESSIONS }, (_, s) => request(`s${s}`, index));
    await transport.publish([{ source: 'Erp', messages }]);
  }
  await processor.start();
  const deadline = Date.now() + 20_000;
  while ((await transport.counts('Erp')).active > 0) {
    if (Date.now() > deadline) throw new Error(`only ${processor.stats.messagesHandled} handled`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await processor.stop();
  return { transport, processor, batchSizes };
}

const eventOf = (context: MessageHandlingContext) => {
  const [sessionId, index] = (context.message.eventId ?? '').split('-') as [string, string];
  return { sessionId, index: Number(index) };
};

describe('the engine settling receive batches on SQLite (settleMany)', () => {
  it('handles every message once, in order per session, with its Resolver response; a poison one is dead-lettered', async () => {
    const handled = new Map<string, number[]>();
    const { transport, processor, batchSizes } = await runBatches(async (context) => {
      const { sessionId, index } = eventOf(context);
      handled.set(sessionId, [...(handled.get(sessionId) ?? []), index]);
      if (sessionId === 's0' && index === 7) throw new PermanentFailureError('poison');
    });
    const inOrder = Array.from({ length: PER_SESSION }, (_, i) => i);
    for (let s = 0; s < SESSIONS; s++) expect(handled.get(`s${s}`)).toEqual(inOrder);
    expect(processor.stats.handlerErrors).toBe(0);
    expect(batchSizes.some((size) => size > 1)).toBe(true);
    expect(await transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 1, parked: 0 });
    const [dead] = await transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({ sessionId: 's0', reason: 'Permanent failure: poison' });
    // Each request reached the Resolver when published (To = Erp) and once more as the engine's response.
    expect((await transport.counts('Resolver')).active).toBe(2 * SESSIONS * PER_SESSION);
  });

  it('runs nothing of a batch after a message that failed transiently before that message runs again', async () => {
    const runs = new Map<string, { index: number; ok: boolean }[]>();
    const { batchSizes } = await runBatches(async (context) => {
      const { sessionId, index } = eventOf(context);
      const list = runs.get(sessionId) ?? [];
      // Every fifth event fails transiently on its first two runs, mid-batch.
      const ok = index % 5 !== 3 || list.filter((r) => r.index === index).length >= 2;
      list.push({ index, ok });
      runs.set(sessionId, list);
      if (!ok) throw new TransientError(`busy (${sessionId}/${index})`);
    });
    expect(batchSizes.some((size) => size > 1)).toBe(true);
    for (let s = 0; s < SESSIONS; s++) {
      const list = runs.get(`s${s}`) ?? [];
      // No run of an event after a later one of its session (the batch used to run the rest of it right after
      // the transient failure, and those events succeeded before the failed one ran again).
      let highest = -1;
      const overtaking = list.filter((run) => {
        const late = run.index < highest;
        highest = Math.max(highest, run.index);
        return late;
      });
      expect(overtaking, `session s${s}`).toEqual([]);
      expect(new Set(list.filter((r) => r.ok).map((r) => r.index)).size).toBe(PER_SESSION);
    }
  });
});
