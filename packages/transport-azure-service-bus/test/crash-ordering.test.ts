import { CONFORMANCE_TOPOLOGY } from '@nimbus/core/conformance';
import { describe, expect, it } from 'vitest';
import { emulatedTransport } from './fixtures.js';

const message = (sessionId: string, body: string, to = 'Erp') => ({
  messageId: `${sessionId}-${body}`,
  sessionId,
  correlationId: `corr-${sessionId}`,
  headers: { To: to },
  body,
});

describe('Service Bus transport: a settlement repeated after a crash between its steps', () => {
  it('repeats publish, park, dead-letter-parked and state without failing or duplicating the line', async () => {
    const { transport, cleanup } = await emulatedTransport();
    try {
      await transport.applyTopology(CONFORMANCE_TOPOLOGY);
      await transport.publish([
        {
          source: 'Erp',
          messages: [message('s', 'trigger'), message('s', 'next'), message('s', 'redelivered')],
        },
      ]);
      const session = (await transport.acceptSession('Erp', { sessionId: 's', waitMs: 2_000 }))!;
      const received = [];
      while (received.length < 3)
        received.push(...(await session.receive({ max: 3 - received.length, waitMs: 1_000 })));
      const [trigger, next, redelivered] = received;
      await session.complete(trigger!, { park: [{ sequence: 1, message: message('s', 'p1') }] });
      await session.renewLock();
      const effects = {
        publish: [{ source: 'Erp', messages: [message('s', 'answer', 'Resolver')] }],
        park: [{ sequence: 2, message: message('s', 'p2') }],
        deadLetterParked: [{ sequence: 1, reason: 'ReplayFailed', description: null }],
        state: { mode: 'blocked' },
      };
      // Every effect of a settlement is applied before the message is settled. A crash before that last step
      // brings the message back and the engine settles it again with the same effects: applying them a second
      // time (here with the next message in hand) must neither fail nor change the line.
      await session.complete(next!, effects);
      await session.renewLock();
      await session.complete(redelivered!, effects);
      expect((await session.readParked(0, 10)).map((p) => p.sequence)).toEqual([2]);
      expect(await session.getState()).toEqual({ mode: 'blocked' });
      expect((await transport.peekDeadLetters('Erp')).map((d) => [d.body, d.reason])).toEqual([
        ['p1', 'ReplayFailed'],
      ]);
      await session.release();
      // The answer went out twice (at least once); its message id lets the Resolver drop the repeat.
      const answers = (await transport.peek('Resolver')).filter((m) => m.body === 'answer');
      expect(new Set(answers.map((m) => m.messageId)).size).toBe(1);
    } finally {
      await cleanup();
    }
  });
});
