import { expect, it } from 'vitest';
import type { AcceptSessionsOptions, SessionHandle } from '../../transport/transport.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, type Harness, MAX_REAL_TIME_LOCK_MS } from '../harness.js';

// `acceptSessions` (optional): several leases in one call, each exactly like one `acceptSession` would give.

const lockLost = { code: TransportErrorCode.SessionLockLost };

function acceptMany(h: Harness, max: number, waitMs = 0): Promise<SessionHandle[]> {
  const options: AcceptSessionsOptions = { input: 'Erp', max, waitMs };
  return h.transport.acceptSessions!(options);
}

const ids = (sessions: readonly SessionHandle[]) => sessions.map((session) => session.sessionId);

export function acceptSessionsCases(harness: () => Harness): void {
  it('leases up to max sessions longest ready first, then the rest, then none; a held session is not given again', async (ctx) => {
    const h = harness();
    ctx.skip(!h.transport.acceptSessions, 'the transport has no acceptSessions');
    for (const session of ['first', 'second', 'third', 'fourth']) {
      await h.sendTo('Erp', session, `${session}-1`);
      await h.elapse(5);
    }
    const three = await acceptMany(h, 3);
    expect(ids(three)).toEqual(['first', 'second', 'third']);
    for (const session of three) expect(session.lockedUntil.getTime()).toBeGreaterThan(h.now());
    expect(ids(await acceptMany(h, 3))).toEqual(['fourth']);
    expect(await acceptMany(h, 3)).toEqual([]);
    expect(await h.tryAccept('Erp')).toBeNull();
    // Each is its own lease: releasing one leaves the others held and working.
    await three[1]!.release();
    expect(ids(await acceptMany(h, 2))).toEqual(['second']);
    const [first] = await three[0]!.receive({ max: 1, waitMs: h.presenceWaitMs });
    expect(first?.body).toBe('first-1');
    await three[0]!.complete(first!);
    expect((await h.transport.counts('Erp')).active).toBe(3);
  });

  it('gives no session to two concurrent calls', async (ctx) => {
    const h = harness();
    ctx.skip(!h.transport.acceptSessions, 'the transport has no acceptSessions');
    const sessions = Array.from({ length: 7 }, (_, i) => `s${i}`);
    for (const session of sessions) await h.sendTo('Erp', session, 'x');
    const calls = await Promise.all([acceptMany(h, 4), acceptMany(h, 4), acceptMany(h, 4)]);
    const all = calls.flatMap(ids);
    expect(new Set(all).size).toBe(all.length);
    for (const call of calls) expect(call.length).toBeLessThanOrEqual(4);
    // Whatever a call missed because another held it is still there for the next one.
    const rest = ids(await acceptMany(h, 7));
    expect([...all, ...rest].sort()).toEqual(sessions);
  });

  it('waits for the first session with a visible message', async (ctx) => {
    const h = harness();
    ctx.skip(!h.transport.acceptSessions, 'the transport has no acceptSessions');
    ctx.skip(h.controlsTime, 'waits in real time');
    const waiting = acceptMany(h, 5, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await h.sendTo('Erp', 'late', 'y');
    const startedAt = Date.now();
    expect(ids(await waiting)).toEqual(['late']);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('fences each lease on its own: a lapsed handle from the call settles nothing once its session was taken over', async (ctx) => {
    const h = harness();
    ctx.skip(!h.transport.acceptSessions, 'the transport has no acceptSessions');
    ctx.skip(
      !h.canOutwaitLocks,
      `lockDurationMs ${h.transport.capabilities.lockDurationMs} ms is longer than ${MAX_REAL_TIME_LOCK_MS} ms and the fixture gives no clock or advance()`,
    );
    await h.sendTo('Erp', 'stale', 'a', 'b');
    await h.elapse(5);
    await h.sendTo('Erp', 'other', 'z');
    const [stale, other] = await acceptMany(h, 2);
    expect([stale?.sessionId, other?.sessionId]).toEqual(['stale', 'other']);
    const [a] = await stale!.receive({ max: 1, waitMs: h.presenceWaitMs });
    await other!.release();
    await h.elapse(h.transport.capabilities.lockDurationMs + 50);
    const takers = await acceptMany(h, 2);
    expect(ids(takers).sort()).toEqual(['other', 'stale']);
    const taker = takers.find((session) => session.sessionId === 'stale')!;

    await expect(stale!.complete(a!, { state: { by: 'stale holder' } })).rejects.toMatchObject(lockLost);
    await expect(stale!.setState({ by: 'stale holder' })).rejects.toMatchObject(lockLost);
    await expect(stale!.renewLock()).rejects.toMatchObject(lockLost);
    expect(await taker.getState()).toBeNull();
    const again = await h.receiveAll(taker, 2);
    expect(bodiesOf(again)).toEqual(['a', 'b']);
    expect(again[0]!.deliveryCount).toBe(2);
    for (const received of again) await taker.complete(received);
  });
}
