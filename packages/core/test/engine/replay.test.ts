import { describe, expect, it } from 'vitest';
import { MAX_REPLAY_TRANSIENT_ATTEMPTS } from '../../src/engine/replay-line.js';
import { decodeEnvelope, encodeEnvelope, Header, MessageType } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

describe('engine: ordered replay inside the session', () => {
  it('parked messages keep their permanent sequence; a replayed failure re-blocks in place', async () => {
    const f = setup();
    const fail = new Set(['a', 'c']);
    f.handler.script = (c) => {
      if (fail.has(c.message.eventId ?? '')) throw new Error(`fail ${c.message.eventId}`);
    };
    for (const id of ['a', 'b', 'c', 'd']) await f.deliver(event({ eventId: id }));
    expect([...f.session.parked.keys()]).toEqual([1, 2, 3]);
    fail.delete('a');
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'a' })));
    // b handled, c fails again and blocks; d keeps sequence 3.
    expect(f.session.blockedBy()).toBe('c');
    expect([...f.session.parked.keys()]).toEqual([3]);
    expect(f.session.state).toMatchObject({ deferredCount: 1, replaying: false });
    await f.deliver(event({ eventId: 'e' }));
    expect([...f.session.parked.keys()]).toEqual([3, 4]);
    fail.clear();
    await f.deliver(control(MessageType.ResubmissionRequest, event({ eventId: 'c' })));
    expect(f.handler.handledEventIds).toEqual(['a', 'b', 'c', 'c', 'd', 'e']);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
  });

  it('a skip with nothing parked sends only the SkipResponse (no replay trigger)', async () => {
    const f = setup();
    const e = event();
    f.session.state = { blockedByEventId: e.eventId, replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(control(MessageType.SkipRequest, e));
    expect(f.session.responses().map((r) => r.messageType)).toEqual([MessageType.SkipResponse]);
  });

  it('a persisted replaying session replays before taking the new message (no overtaking)', async () => {
    const f = setup();
    const parked = event({ eventId: 'old' });
    f.session.parked.set(1, f.session.deliver(parked));
    f.session.state = { blockedByEventId: null, replaying: true, nextSequence: 2, deferredCount: 1 };
    await f.deliver(event({ eventId: 'new' }));
    expect(f.handler.handledEventIds).toEqual(['old', 'new']);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
    expect(f.session.responses(MessageType.DeferralResponse)).toHaveLength(0);
  });

  it('a large line is replayed in budgets handed over with a ContinuationRequest', async () => {
    const f = setup({ extra: { maxReplayPerSettlement: 2 } });
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    for (const id of ['p1', 'p2', 'p3']) await f.deliver(event({ eventId: id }));
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    expect(f.handler.handledEventIds).toEqual(['blocker', 'p1', 'p2']);
    expect(f.session.state).toMatchObject({ replaying: true });
    const [continuation] = f.session.responses(MessageType.ContinuationRequest);
    expect(continuation?.to).toBe('Continuation');
    await f.deliver({ ...continuation!, from: 'Continuation', to: 'Billing' });
    expect(f.handler.handledEventIds).toEqual(['blocker', 'p1', 'p2', 'p3']);
    expect(f.session.state).toMatchObject({ replaying: false, deferredCount: 0 });
  });

  it('a transient failure during replay keeps that message parked, settles what ran before it (nothing runs twice), and retries the line with back-off', async () => {
    const f = setup();
    let transient = true;
    const { TransientError } = await import('../../src/index.js');
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
      if (c.message.eventId === 'p2' && transient) throw new TransientError('db');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    for (const id of ['p1', 'p2', 'p3']) await f.deliver(event({ eventId: id }));
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.blockedBy()).toBeNull();
    expect([...f.session.parked.keys()]).toEqual([2, 3]);
    expect(f.session.state).toMatchObject({ replaying: true, deferredCount: 2 });
    const [retry] = f.session.scheduled();
    expect(retry?.envelope).toMatchObject({ messageType: MessageType.ContinuationRequest, retryCount: 1 });
    expect(retry!.at.getTime() - f.clock.now()).toBe(500);
    // A new event waits behind the stalled line instead of overtaking it.
    await f.deliver(event({ eventId: 'new' }));
    expect(f.handler.handledEventIds).toEqual(['blocker', 'p1', 'p2', 'p2']);
    expect([...f.session.parked.keys()]).toEqual([2, 3, 4]);
    transient = false;
    await f.deliver({ ...retry!.envelope, from: 'Continuation', to: 'Billing' });
    expect(f.handler.handledEventIds).toEqual(['blocker', 'p1', 'p2', 'p2', 'p2', 'p3', 'new']);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.state).toMatchObject({ replaying: false, deferredCount: 0 });
  });

  it('a parked message that keeps failing transiently while replayed is dead-lettered after the max attempts; the line goes on', async () => {
    const f = setup();
    const { TransientError } = await import('../../src/index.js');
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
      if (c.message.eventId === 'p1') throw new TransientError('db');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    for (const id of ['p1', 'p2']) await f.deliver(event({ eventId: id }));
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    for (let attempt = 1; attempt < MAX_REPLAY_TRANSIENT_ATTEMPTS; attempt++) {
      const retry = f.session.scheduled().at(-1)!;
      expect(retry.envelope.retryCount).toBe(attempt);
      await f.deliver({ ...retry.envelope, from: 'Continuation', to: 'Billing' });
    }
    expect(f.handler.handledEventIds.filter((id) => id === 'p1')).toHaveLength(MAX_REPLAY_TRANSIENT_ATTEMPTS);
    expect(f.handler.handledEventIds.at(-1)).toBe('p2');
    expect(f.session.parked.size).toBe(0);
    expect(f.session.deadLettered.map((d) => d.reason)).toEqual([
      expect.stringContaining('Max delivery count exceeded'),
    ]);
  });

  it('operator reprocess (ProcessDeferredRequest from Manager) is refused while a block holds: nothing replays out of order', async () => {
    const f = setup();
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    await f.deliver(event({ eventId: 'p1' }));
    await f.deliver(
      event({ eventId: 'x', messageType: MessageType.ProcessDeferredRequest, from: 'Manager' }),
    );
    expect(f.handler.handledEventIds).toEqual(['blocker']);
    expect(f.session.state).toMatchObject({ blockedByEventId: 'blocker' });
    const [refusal] = f.session.responses(MessageType.RefusalResponse);
    expect(refusal?.content.errorContent?.errorText).toContain("is blocked by event 'blocker'");
  });

  it('operator reprocess replays a line that no block holds', async () => {
    const f = setup();
    f.session.parked.set(1, f.session.deliver(event({ eventId: 'p1' })));
    f.session.state = { blockedByEventId: null, replaying: false, nextSequence: 2, deferredCount: 1 };
    await f.deliver(
      event({ eventId: 'x', messageType: MessageType.ProcessDeferredRequest, from: 'Manager' }),
    );
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false });
  });

  it('a replayed message that is dead-lettered moves to the dead letters and is reported to the Resolver; replay continues', async () => {
    const f = setup();
    const { PermanentFailureError } = await import('../../src/index.js');
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
      if (c.message.eventId === 'bad') throw new PermanentFailureError('bad payload');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    await f.deliver(event({ eventId: 'bad' }));
    await f.deliver(event({ eventId: 'good' }));
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    const notice = f.session.responses(MessageType.ErrorResponse).find((r) => r.eventId === 'bad');
    expect(notice?.deadLetterReason).toBe('Permanent failure: bad payload');
    expect(f.handler.handledEventIds).toEqual(['blocker', 'bad', 'good']);
    expect(f.session.parked.size).toBe(0);
    // One settlement (the skip) carries it: dead-lettered at its parked sequence, not also unparked.
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.lastEffects().deadLetterParked).toEqual([
      {
        sequence: 1,
        reason: 'Permanent failure: bad payload',
        description: expect.stringContaining('bad payload'),
      },
    ]);
    expect(f.session.lastEffects().unpark).toEqual([2]);
    expect(f.session.deadLettered.map((d) => decodeEnvelope(d.message).eventId)).toEqual(['bad']);
  });

  it('an unreadable parked message is dead-lettered with its problems and the Resolver is told', async () => {
    const f = setup();
    const good = event({ eventId: 'good' });
    const unreadable = encodeEnvelope(event({ eventId: 'broken' }));
    f.session.parked.set(1, {
      ...unreadable,
      headers: { ...unreadable.headers, [Header.MessageType]: 'Nonsense' },
    });
    f.session.parked.set(2, encodeEnvelope(good));
    f.session.state = { blockedByEventId: null, replaying: true, nextSequence: 3, deferredCount: 2 };
    await f.deliver(event({ eventId: 'new' }));
    expect(f.handler.handledEventIds).toEqual(['good', 'new']);
    const [entry] = f.session.lastEffects().deadLetterParked ?? [];
    expect(entry?.sequence).toBe(1);
    expect(entry?.reason).toContain('Nonsense');
    expect(f.session.lastEffects().unpark).toEqual([2]);
    const notice = f.session.responses(MessageType.ErrorResponse).find((r) => r.eventId === 'broken');
    expect(notice?.deadLetterReason).toContain('Nonsense');
    expect(f.session.state).toMatchObject({ replaying: false, deferredCount: 0 });
  });
});

describe('engine: replay and behaviours', () => {
  it('a behaviour that skips a replayed message leaves it parked; the trigger is abandoned', async () => {
    let gate = false;
    const f = setup({
      behaviours: [
        {
          name: 'gate',
          handle: async (context, next) => {
            if (gate && context.isReplay) return;
            await next();
          },
        },
      ],
    });
    f.handler.script = (c) => {
      if (c.message.eventId === 'blocker') throw new Error('x');
    };
    await f.deliver(event({ eventId: 'blocker' }));
    await f.deliver(event({ eventId: 'p1' }));
    gate = true;
    await f.deliver(control(MessageType.SkipRequest, event({ eventId: 'blocker' })));
    expect(f.session.last?.kind).toBe('abandon');
    expect(f.session.parked.size).toBe(1);
    expect(f.session.blockedBy()).toBe('blocker');
  });

  it('parks the transport shape of a message, not its delivery details', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new Error('x');
    };
    await f.deliver(event());
    await f.deliver(event());
    const [parked] = f.session.parked.values();
    expect(Object.keys(parked ?? {}).sort()).toEqual([
      'body',
      'correlationId',
      'headers',
      'messageId',
      'sessionId',
    ]);
  });
});
