import { expect, it } from 'vitest';
import type { MessageHandlingContext } from '../../engine/handler-context.js';
import { MessageEngine } from '../../engine/message-engine.js';
import { createEnvelope, type MessageEnvelope } from '../../envelope/envelope.js';
import { MessageType } from '../../envelope/message-type.js';
import { encodeEnvelope } from '../../envelope/wire.js';
import { PermanentFailureError } from '../../errors/handling-errors.js';
import { uuidv7 } from '../../ids.js';
import { silentLogger } from '../../logger.js';
import { Addresses } from '../../platform/reserved.js';
import type { Harness } from '../harness.js';

export function request(
  sessionId: string,
  eventId: string,
  from = 'Crm',
  type: MessageType = MessageType.EventRequest,
): MessageEnvelope {
  return createEnvelope({
    messageId: uuidv7(),
    to: 'Erp',
    from,
    sessionId,
    correlationId: `corr-${sessionId}`,
    messageType: type,
    eventId,
    eventTypeId: 'CustomerChanged',
    content: {
      eventContent: { eventTypeId: 'CustomerChanged', eventJson: JSON.stringify({ eventId }) },
      errorContent: null,
    },
  });
}

export function engineReplayCases(harness: () => Harness): void {
  it('the engine dead-letters a replayed parked message that fails for good; requeue brings it back into the session', async () => {
    const h = harness();
    const failing = new Map([
      ['blocker', () => new Error('blocker fails once')],
      ['bad', () => new PermanentFailureError('bad payload')],
    ]);
    const handled: string[] = [];
    const engine = new MessageEngine({
      endpointId: 'Erp',
      logger: silentLogger,
      handler: {
        async handle(context: MessageHandlingContext) {
          const eventId = context.message.eventId ?? '';
          handled.push(eventId);
          const failure = failing.get(eventId);
          if (failure) throw failure();
        },
      },
    });
    // Delivers every message of the session that is there now, through the engine, then gives the session up.
    const drain = async () => {
      const session = await h.accept('Erp', 's1');
      await engine.onSessionAccepted(session);
      for (
        let batch = await session.receive({ max: 10, waitMs: 0 });
        batch.length > 0;
        batch = await session.receive({ max: 10, waitMs: 0 })
      ) {
        for (const received of batch) await engine.handleMessage(session, received);
      }
      await session.release();
    };
    const send = (...envelopes: MessageEnvelope[]) => h.send('Erp', ...envelopes.map(encodeEnvelope));

    await send(request('s1', 'blocker'), request('s1', 'bad'), request('s1', 'good'));
    await drain();
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 2, deadLettered: 0 });

    failing.delete('blocker');
    await send(request('s1', 'blocker', Addresses.manager, MessageType.SkipRequest));
    await drain();
    expect(handled).toEqual(['blocker', 'bad', 'good']);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 0, deadLettered: 1 });
    const [dead] = await h.transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({ sessionId: 's1', reason: 'Permanent failure: bad payload' });
    expect(dead?.description).toContain('bad payload');

    failing.clear();
    expect(await h.transport.requeueDeadLetters('Erp', [dead!.id])).toBe(1);
    await drain();
    expect(handled).toEqual(['blocker', 'bad', 'good', 'bad']);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 0, deadLettered: 0 });
  });
}
