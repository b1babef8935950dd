import { expect, it } from 'vitest';
import { MessageEngine } from '../../engine/message-engine.js';
import { createEnvelope } from '../../envelope/envelope.js';
import { Header } from '../../envelope/headers.js';
import { MessageType } from '../../envelope/message-type.js';
import { encodeEnvelope } from '../../envelope/wire.js';
import { uuidv7 } from '../../ids.js';
import { silentLogger } from '../../logger.js';
import { RESOLVER_INPUT } from '../../transport/routing.js';
import type { Harness } from '../harness.js';

// Issue 12.6: a message that cannot be read is dead-lettered with a reason, never redelivered forever, and never
// blocks the messages behind it in its session.

const UNREADABLE = 'UnreadableMessage';

export function unreadableMessageCases(harness: () => Harness): void {
  it.for([
    ['not valid JSON', '{"To":"Erp",', /headers are not valid JSON/],
    ['null', 'null', /headers must be a JSON object of strings, got null/],
    ['a number value', '{"To":"Erp","EventId":7}', /header 'EventId' must be a string, got a number/],
  ] as const)(
    'headers that are %s: dead-lettered at receive with the reason, the next message is delivered',
    async ([, raw, why], ctx) => {
      const h = harness();
      const corrupt = h.fixture.corruptStoredHeaders;
      ctx.skip(
        !corrupt,
        'the transport keeps messages as objects (no corruptStoredHeaders): headers are checked at publish',
      );
      if (!corrupt) return;
      const [bad] = await h.sendTo('Erp', 'poison', 'bad', 'good');
      await corrupt.call(h.fixture, 'Erp', bad!.messageId, raw);
      const session = await h.accept('Erp', 'poison');
      const received = await session.receive({ max: 10, waitMs: h.presenceWaitMs });
      expect(received.map((m) => m.body)).toEqual(['good']);
      await session.complete(received[0]!);
      await session.release();
      const [dead] = await h.transport.peekDeadLetters('Erp');
      expect(dead).toMatchObject({ messageId: bad!.messageId, reason: UNREADABLE, headers: {} });
      expect(dead?.description).toMatch(why);
      expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 1 });
    },
  );

  it('a message larger than the consumer accepts is dead-lettered at receive, not loaded and not looped', async (ctx) => {
    const h = harness();
    ctx.skip(
      !h.fixture.openConsumer,
      'the fixture has no openConsumer: producer and consumer share one budget',
    );
    if (!h.fixture.openConsumer) return;
    const consumer = await h.fixture.openConsumer({ maxBatchBytes: 4_096 });
    try {
      await h.sendTo('Erp', 'big', 'x'.repeat(64 * 1024), 'small');
      const session = await consumer.acceptSession('Erp', { sessionId: 'big', waitMs: h.presenceWaitMs });
      expect(session).not.toBeNull();
      const received = await session!.receive({ max: 10, waitMs: h.presenceWaitMs });
      expect(received.map((m) => m.body)).toEqual(['small']);
      await session!.complete(received[0]!);
      await session!.release();
      const [dead] = await consumer.peekDeadLetters('Erp');
      expect(dead?.reason).toBe(UNREADABLE);
      expect(dead?.description).toMatch(/more than this consumer accepts \(maxBatchBytes 4096\)/);
      // The producer side, with its larger budget, can still requeue it for a consumer that accepts it.
      expect(await h.transport.requeueDeadLetters('Erp')).toBe(1);
      expect(await h.transport.counts('Erp')).toMatchObject({ active: 1, deadLettered: 0 });
    } finally {
      await consumer.close();
    }
  });

  it('the engine dead-letters a message whose settlement the transport refuses for good, instead of looping', async () => {
    const h = harness();
    const budget = h.transport.capabilities.maxBatchBytes;
    // Fits the budget alone; the engine's error response carries the payload plus a stack, which does not.
    const payload = JSON.stringify({ blob: 'y'.repeat(Math.max(0, budget - 2_000)) });
    const event = createEnvelope({
      messageId: uuidv7(),
      to: 'Erp',
      from: 'Crm',
      sessionId: 'too-big-to-answer',
      correlationId: 'corr-big',
      messageType: MessageType.EventRequest,
      eventId: uuidv7(),
      eventTypeId: 'CustomerChanged',
      content: { eventContent: { eventTypeId: 'CustomerChanged', eventJson: payload }, errorContent: null },
    });
    await h.send('Erp', encodeEnvelope(event));
    const engine = new MessageEngine({
      endpointId: 'Erp',
      logger: silentLogger,
      handler: {
        async handle() {
          throw new Error('fails with a long story '.repeat(200));
        },
      },
    });
    const session = await h.accept('Erp', 'too-big-to-answer');
    const [received] = await session.receive({ max: 1, waitMs: h.presenceWaitMs });
    await engine.handleMessage(session, received!);
    await session.release();
    const [dead] = await h.transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({ messageId: event.messageId, reason: 'SettlementRefused' });
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 1 });
    // #26: the Resolver is told (without the payload), so the store's row ends DeadLettered, not Pending.
    const told = (await h.transport.peek(RESOLVER_INPUT, { max: 50 })).find(
      (m) =>
        m.headers[Header.EventId] === event.eventId &&
        m.headers[Header.MessageType] === MessageType.ErrorResponse,
    );
    expect(told?.headers).toMatchObject({
      [Header.MessageType]: MessageType.ErrorResponse,
      [Header.DeadLetterReason]: 'SettlementRefused',
    });
    expect(told!.headers[Header.DeadLetterErrorDescription]).toMatch(/refused to settle/);
    expect(told!.body.length).toBeLessThan(budget / 2);
  });
}
