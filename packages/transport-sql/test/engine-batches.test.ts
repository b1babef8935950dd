import {
  createEnvelope,
  encodeEnvelope,
  MessageEngine,
  MessageType,
  PermanentFailureError,
  SessionProcessor,
  silentLogger,
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

describe('the engine settling receive batches on SQLite (settleMany)', () => {
  it('handles every message once, in order per session, with its Resolver response; a poison one is dead-lettered', async () => {
    fixture = sqliteFixture();
    const transport = await fixture.open({ lockDurationMs: 5_000 });
    await transport.applyTopology({ endpoints: ['Crm', 'Erp'], routes: [] });
    const handled = new Map<string, number[]>();
    const engine = new MessageEngine({
      endpointId: 'Erp',
      logger: silentLogger,
      handler: {
        async handle(context) {
          const [sessionId, index] = (context.message.eventId ?? '').split('-') as [string, string];
          handled.set(sessionId, [...(handled.get(sessionId) ?? []), Number(index)]);
          if (sessionId === 's0' && index === '7') throw new PermanentFailureError('poison');
        },
      },
    });
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
        async handleMessages(session, messages) {
          batchSizes.push(messages.length);
          await engine.handleMessages(session, messages);
        },
      },
    });
    for (let index = 0; index < PER_SESSION; index++) {
      const messages = Array.from({ length: SESSIONS }, (_, s) => request(`s${s}`, index));
      await transport.publish([{ source: 'Erp', messages }]);
    }
    await processor.start();
    const deadline = Date.now() + 10_000;
    while (processor.stats.messagesHandled + processor.stats.handlerErrors < SESSIONS * PER_SESSION) {
      if (Date.now() > deadline) throw new Error(`only ${processor.stats.messagesHandled} handled`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await processor.stop();

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
});
