import { describe, expect, it } from 'vitest';
import { MessageType, type ReceivedMessage, TransportError, TransportErrorCode } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { BatchingFakeSession, control, event } from './fake-session.js';

/** The same deliveries handled one by one and as one batch must end the same way. */
function scenario() {
  const blocker = event({ eventId: 'blocker' });
  return [
    event({ eventId: 'a' }),
    blocker,
    event({ eventId: 'p1' }),
    event({ eventId: 'bad' }),
    control(MessageType.SkipRequest, blocker),
    event({ eventId: 'b' }),
  ];
}

async function runScenario(batched: boolean) {
  const f = setup();
  const session = new BatchingFakeSession();
  let blockerFails = true;
  const { PermanentFailureError } = await import('../../src/index.js');
  f.handler.script = (c) => {
    if (c.message.eventId === 'blocker' && blockerFails) {
      blockerFails = false;
      throw new Error('x');
    }
    if (c.message.eventId === 'bad') throw new PermanentFailureError('bad payload');
  };
  const received = scenario().map((e) => session.deliver(e));
  if (batched) await f.engine.handleMessages(session, received);
  else for (const message of received) await f.engine.handleMessage(session, message);
  return { f, session };
}

describe('engine: handleMessages settles a received batch together', () => {
  it('decides exactly as one message at a time, with replay inside the batch', async () => {
    const single = await runScenario(false);
    const batch = await runScenario(true);
    expect(batch.f.handler.handledEventIds).toEqual(single.f.handler.handledEventIds);
    expect(batch.f.handler.handledEventIds).toEqual(['a', 'blocker', 'p1', 'bad', 'b']);
    expect(batch.session.state).toEqual(single.session.state);
    expect(batch.session.parked).toEqual(single.session.parked);
    expect(batch.session.deadLettered.map((d) => d.reason)).toEqual(['Permanent failure: bad payload']);
    const shape = (s: BatchingFakeSession) =>
      s.published.map((p) => [p.envelope.messageType, p.envelope.eventId]);
    expect(shape(batch.session)).toEqual(shape(single.session));
    // Observers hear the same events; outcomes are told once the batch (or the part before a replay) is
    // committed, so they may come after the next message's `received`.
    expect([...batch.f.lifecycle].sort()).toEqual([...single.f.lifecycle].sort());
    expect(batch.f.lifecycle.filter((l) => !l.startsWith('received'))).toEqual(
      single.f.lifecycle.filter((l) => !l.startsWith('received')),
    );
    // The replay reads parked messages, so what came before the skip is committed first: two calls, not six.
    expect(batch.session.batches.map((b) => b.length)).toEqual([4, 2]);
    expect(single.session.batches).toEqual([]);
  });

  it('a failed commit applies nothing, tells no observer and forgets the cached state', async () => {
    const f = setup();
    const session = new BatchingFakeSession();
    f.handler.script = () => {
      throw new Error('blocks');
    };
    const received = [event({ eventId: 'a' }), event({ eventId: 'b' })].map((e) => session.deliver(e));
    session.failNext = new TransportError(TransportErrorCode.ServiceUnavailable, 'db down');
    await expect(f.engine.handleMessages(session, received)).rejects.toMatchObject({
      code: TransportErrorCode.ServiceUnavailable,
    });
    expect(session.settlements).toEqual([]);
    expect(session.state).toBeNull();
    expect(f.lifecycle.filter((l) => !l.startsWith('received'))).toEqual([]);
    // Redelivered, the batch is decided from the stored state again (a blocks, b parks).
    const again = [event({ eventId: 'a2' }), event({ eventId: 'b2' })].map((e) => session.deliver(e));
    await f.engine.handleMessages(session, again);
    expect(session.blockedBy()).toBe('a2');
    expect([...session.parked.keys()]).toEqual([1]);
  });

  it('stops at a message it abandons: the later ones are left unrun (they would overtake it) and counted', async () => {
    const f = setup();
    const session = new BatchingFakeSession();
    const { TransientError } = await import('../../src/index.js');
    f.handler.script = (c) => {
      if (c.message.eventId === 'b') throw new TransientError('warehouse busy');
    };
    const received = ['a', 'b', 'c', 'd'].map((eventId) => session.deliver(event({ eventId })));
    const outcome = await f.engine.handleMessages(session, received);
    expect(f.handler.handledEventIds).toEqual(['a', 'b']);
    expect(outcome).toEqual({ leftUnrun: 2 });
    // a is committed before b is abandoned (an abandon flushes); c and d are neither run nor settled.
    expect(session.settlements.map((s) => [s.kind, s.message.sequence])).toEqual([
      ['complete', received[0]!.sequence],
      ['abandon', received[1]!.sequence],
    ]);
  });

  it('without settleMany on the handle it settles one message at a time', async () => {
    const f = setup();
    const received: ReceivedMessage[] = [event(), event()].map((e) => f.session.deliver(e));
    await f.engine.handleMessages(f.session, received);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete', 'complete']);
  });
});
