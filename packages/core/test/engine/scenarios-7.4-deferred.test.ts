import { describe, expect, it } from 'vitest';
import { MessageType, TransportError, TransportErrorCode } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

// Reference §7.4 DeferredMessageDispatcherTests. NimBus TS has no deferred dispatcher (N/A): a parked message
// stays in its own session's line and the engine replays it inside that session, under the session lock it
// already holds. Each test pins what happens instead.

type Fixture = ReturnType<typeof setup>;

/** Blocks the session with a failing event, parks `ids` behind it, then lets the test skip the blocker. */
async function blockedLine(f: Fixture, ids: string[], init: Parameters<typeof event>[0] = {}) {
  const previous = f.handler.script;
  f.handler.script = (c) => {
    if (c.message.eventId === 'blocker') throw new Error('blocker fails');
    return previous(c);
  };
  await f.deliver(event({ eventId: 'blocker' }));
  for (const id of ids) await f.deliver(event({ eventId: id, ...init }));
  return control(MessageType.SkipRequest, event({ eventId: 'blocker' }));
}

describe('7.4 DeferredMessageDispatcher (N/A in NimBus TS: replay runs inside the session)', () => {
  it('7.4 DeferredMessageDispatcher: (adapted) a message with no session id at all is dead-lettered naming it', async () => {
    const f = setup();
    await f.deliver(event({ sessionId: '' }));
    expect(f.handler.calls).toHaveLength(0);
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toContain('missing session id');
  });

  it('7.4 DeferredMessageDispatcher: (adapted) a replayed message runs in the session that parked it, whatever its OriginalSessionId says', async () => {
    const f = setup();
    const skip = await blockedLine(f, ['p1'], { originalSessionId: 'somewhere-else' });
    await f.deliver(skip);
    const [resolution] = f.session
      .responses(MessageType.ResolutionResponse)
      .filter((r) => r.eventId === 'p1');
    expect(resolution?.sessionId).toBe('session-1');
    expect(f.handler.calls.find((c) => c.message.eventId === 'p1')?.isReplay).toBe(true);
  });

  it('7.4 DeferredMessageDispatcher: (N/A: no property fallback) the parked copy carries its session id itself', async () => {
    const f = setup();
    await blockedLine(f, ['p1']);
    expect([...f.session.parked.values()].map((m) => m.sessionId)).toEqual(['session-1']);
  });

  it('7.4 DeferredMessageDispatcher: a replayed success is unparked and the trigger completes', async () => {
    const f = setup();
    const skip = await blockedLine(f, ['p1', 'p2']);
    await f.deliver(skip);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.last?.kind).toBe('complete');
    expect(f.handler.handledEventIds).toEqual(['blocker', 'p1', 'p2']);
  });

  it('7.4 DeferredMessageDispatcher: (N/A: the session is already locked) a SessionCannotBeLocked error from a replayed handler is transient: nothing unparked, the line is retried', async () => {
    const f = setup();
    const skip = await blockedLine(f, ['p1']);
    f.handler.script = () => {
      throw new TransportError(TransportErrorCode.SessionCannotBeLocked, 'downstream session busy');
    };
    await f.deliver(skip);
    // (fixed, issue 12) The skip is settled; the replayed message stays parked and the line is retried later.
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.parked.size).toBe(1);
    expect(f.session.blockedBy()).toBeNull();
    expect(f.session.scheduled()).toHaveLength(1);
  });

  it('7.4 DeferredMessageDispatcher: other failures surface: a failing parked-line read rejects and applies nothing', async () => {
    const f = setup();
    const skip = await blockedLine(f, ['p1']);
    f.session.readParked = async () => {
      throw new Error('parked store unreadable');
    };
    await expect(f.deliver(skip)).rejects.toThrow('parked store unreadable');
    expect(f.session.parked.size).toBe(1);
    expect(f.session.blockedBy()).toBe('blocker');
  });
});
