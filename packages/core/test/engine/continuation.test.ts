import { describe, expect, it } from 'vitest';
import {
  createEnvelope,
  type MessageEngineOptions,
  type MessageEnvelope,
  MessageType,
  TransientError,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

// Reference §7.1-50..59 (legacy ContinuationRequest), adapted. Our engine parks in a per-session line and
// replays it inside the session, in sequence order; a ContinuationRequest (from Continuation or Manager) is
// the "keep replaying" trigger the engine sends itself when a line is longer than one settlement's budget.
// There is no broker-deferred pop/restore: a settlement either applies everything (unparks included) or
// nothing, so "restored" below means "still parked, at its own sequence".

type Fixture = ReturnType<typeof setup>;

function continuation(from = 'Continuation'): MessageEnvelope {
  return createEnvelope({
    messageId: `cont-${Math.random().toString(16).slice(2)}`,
    to: 'Billing',
    from,
    sessionId: 'session-1',
    messageType: MessageType.ContinuationRequest,
    eventId: 'continuation',
  });
}

/** Parks the given events in an open session whose replay has not started yet. */
function parkedLine(f: Fixture, ids: string[], blockedByEventId: string | null = null): void {
  ids.forEach((id, i) => {
    f.session.parked.set(i + 1, f.session.deliver(event({ eventId: id })));
  });
  f.session.state = {
    blockedByEventId,
    replaying: false,
    nextSequence: ids.length + 1,
    deferredCount: ids.length,
  };
}

function withInbox(inbox: NonNullable<MessageEngineOptions['inbox']>): Fixture {
  return setup({ extra: { inbox } });
}

describe('engine: ContinuationRequest (reference 7.1-50..59, adapted)', () => {
  it('7.1-50 from Continuation with a parked message: the handler runs on it, it is unparked, the continuation completes', async () => {
    const f = setup();
    parkedLine(f, ['p1']);
    await f.deliver(continuation());
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.responses(MessageType.ResolutionResponse).map((r) => r.eventId)).toEqual(['p1']);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
  });

  it('7.1-51 from Manager: authorised, the parked message is handled', async () => {
    const f = setup();
    parkedLine(f, ['p1', 'p2']);
    await f.deliver(continuation('Manager'));
    expect(f.handler.handledEventIds).toEqual(['p1', 'p2']);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-52 from anyone else: dead-lettered naming the sender; nothing replayed, the line stays parked', async () => {
    const f = setup();
    parkedLine(f, ['p1']);
    await f.deliver(continuation('Sales'));
    expect(f.handler.calls).toHaveLength(0);
    const last = f.session.last;
    expect(last?.kind).toBe('deadLetter');
    expect(last?.kind === 'deadLetter' && last.reason).toContain("ContinuationRequest from 'Sales'");
    expect([...f.session.parked.keys()]).toEqual([1]);
  });

  it('7.1-53 nothing parked: the handler does not run, the continuation completes, the session is open again', async () => {
    const f = setup();
    f.session.state = { blockedByEventId: null, replaying: true, nextSequence: 3, deferredCount: 2 };
    await f.deliver(continuation());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.responses()).toHaveLength(0);
    expect(f.session.state).toMatchObject({ replaying: false, deferredCount: 0 });
  });

  it('7.1-54 (adapted: replay goes by sequence, not by EventId) while another event blocks the session: the handler does not run, the continuation completes, the line stays in place', async () => {
    const f = setup();
    parkedLine(f, ['p1', 'p2'], 'blocker');
    await f.deliver(continuation());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.last?.kind).toBe('complete');
    expect([...f.session.parked.keys()]).toEqual([1, 2]);
    expect(f.session.state).toMatchObject({ blockedByEventId: 'blocker', deferredCount: 2 });
  });

  it('7.1-55 the handler throws on the parked message: ErrorResponse, it blocks the session, it is unparked, the continuation completes, the rest stays parked', async () => {
    const f = setup();
    f.handler.script = (c) => {
      if (c.message.eventId === 'p1') throw new Error('p1 fails');
    };
    parkedLine(f, ['p1', 'p2']);
    await f.deliver(continuation());
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(f.session.responses(MessageType.ErrorResponse).map((r) => r.eventId)).toEqual(['p1']);
    expect(f.session.blockedBy()).toBe('p1');
    expect([...f.session.parked.keys()]).toEqual([2]);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete']);
  });

  it('7.1-56 (fixed, issue 12) the inbox check fails during the replay: the handler does not run, nothing is unparked, the line is retried later', async () => {
    const f = withInbox({
      check: async () => {
        throw new Error('inbox store down');
      },
      record: async () => undefined,
    });
    parkedLine(f, ['p1']);
    await f.deliver(continuation());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete']);
    expect([...f.session.parked.keys()]).toEqual([1]);
    expect(f.session.state).toMatchObject({ replaying: true, deferredCount: 1 });
    expect(f.session.scheduled().map((s) => s.envelope.messageType)).toEqual([
      MessageType.ContinuationRequest,
    ]);
  });

  it('7.1-57 (fixed, issue 12) recording in the inbox fails after the handler: it ran once, no resolution, still parked, the line is retried later', async () => {
    const f = withInbox({
      check: async () => 'process',
      record: async () => {
        throw new Error('inbox store down');
      },
    });
    parkedLine(f, ['p1']);
    await f.deliver(continuation());
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete']);
    expect([...f.session.parked.keys()]).toEqual([1]);
    expect(f.session.scheduled()).toHaveLength(1);
  });

  it('7.1-58 (fixed, issue 12) a transient handler failure: still parked; the continuation completes and schedules the next try of the line', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new TransientError('database busy');
    };
    parkedLine(f, ['p1']);
    await f.deliver(continuation());
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete']);
    expect([...f.session.parked.keys()]).toEqual([1]);
    expect(f.session.responses()).toHaveLength(0);
    expect(f.session.scheduled()).toHaveLength(1);
  });

  it('7.1-59 (N/A in NimBus TS: no cancellation tokens; the closest case is losing the session mid-settlement) a failing settle propagates, nothing is unparked, and the redelivered continuation replays the line again', async () => {
    const f = setup();
    parkedLine(f, ['p1']);
    const complete = f.session.complete.bind(f.session);
    f.session.complete = async () => {
      throw new Error('session lock lost');
    };
    const trigger = continuation();
    await expect(f.deliver(trigger)).rejects.toThrow('session lock lost');
    expect([...f.session.parked.keys()]).toEqual([1]);
    expect(f.session.state).toMatchObject({ deferredCount: 1, replaying: false });
    f.session.complete = complete;
    await f.deliver(trigger);
    expect(f.handler.handledEventIds).toEqual(['p1', 'p1']);
    expect(f.session.parked.size).toBe(0);
  });

  it('(fixed, issue 12 long-form chaos) a live event that fails transiently after its settlement replayed the line: the replay stays settled, the event is parked last and retried with the line', async () => {
    const f = setup();
    parkedLine(f, ['p1', 'p2']);
    f.session.state = { ...f.session.state, replaying: true };
    let liveFailures = 1;
    f.handler.script = (c) => {
      if (c.message.eventId === 'live' && liveFailures-- > 0) throw new TransientError('database busy');
    };
    await f.deliver(event({ eventId: 'live' }));
    expect(f.handler.handledEventIds).toEqual(['p1', 'p2', 'live']);
    // Not abandoned: the unparking of p1 and p2 is applied, so neither can run again after a later event.
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete']);
    expect([...f.session.parked.keys()]).toEqual([3]);
    expect(f.session.responses(MessageType.ResolutionResponse).map((r) => r.eventId)).toEqual(['p1', 'p2']);
    expect(f.session.responses(MessageType.DeferralResponse).map((r) => r.eventId)).toEqual(['live']);
    expect(f.session.state).toMatchObject({ replaying: true, deferredCount: 1, nextSequence: 4 });
    const [retry] = f.session.scheduled();
    expect(retry?.envelope).toMatchObject({ messageType: MessageType.ContinuationRequest, retryCount: 1 });

    await f.deliver(retry!.envelope);
    expect(f.handler.handledEventIds).toEqual(['p1', 'p2', 'live', 'live']);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.state).toMatchObject({ replaying: false, deferredCount: 0 });
  });

  it('a live event that fails transiently with nothing replayed before it is delivered again, as before', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new TransientError('database busy');
    };
    await f.deliver(event({ eventId: 'live' }));
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['abandon']);
    expect(f.session.parked.size).toBe(0);
  });
});
