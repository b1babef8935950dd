import { expect, it } from 'vitest';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, type Harness, MAX_REAL_TIME_LOCK_MS } from '../harness.js';

const lockSkipReason = (h: Harness) =>
  `lockDurationMs ${h.transport.capabilities.lockDurationMs} ms is longer than ${MAX_REAL_TIME_LOCK_MS} ms and the fixture gives no clock or advance()`;

export function sessionCases(harness: () => Harness): void {
  it('delivers each session in FIFO order with strictly increasing sequence numbers', async () => {
    const h = harness();
    await h.sendTo('Erp', 's1', '1', '2', '3');
    await h.sendTo('Erp', 's2', 'x');
    await h.sendTo('Erp', 's1', '4', '5');
    const s1 = await h.accept('Erp', 's1');
    const received = await h.receiveAll(s1, 5);
    expect(bodiesOf(received)).toEqual(['1', '2', '3', '4', '5']);
    const sequences = received.map((m) => m.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(5);
    expect(received.every((m) => m.sessionId === 's1' && m.input === 'Erp' && m.deliveryCount === 1)).toBe(
      true,
    );
    const s2 = await h.accept('Erp', 's2');
    expect(bodiesOf(await h.receiveAll(s2, 1))).toEqual(['x']);
  });

  it('accepts the next available session, and resolves null when none has a message', async () => {
    const h = harness();
    expect(await h.tryAccept('Erp')).toBeNull();
    await h.sendTo('Erp', 'only', 'a');
    const session = await h.accept('Erp');
    expect(session.sessionId).toBe('only');
    expect(session.input).toBe('Erp');
    expect(session.lockedUntil.getTime()).toBeGreaterThan(h.now());
  });

  it('keeps a held session exclusive until it is released', async () => {
    const h = harness();
    await h.sendTo('Erp', 'held', 'a', 'b');
    const first = await h.accept('Erp', 'held');
    expect(await h.tryAccept('Erp', 'held')).toBeNull();
    expect(await h.tryAccept('Erp')).toBeNull();
    await first.release();
    const second = await h.accept('Erp', 'held');
    expect(second.sessionId).toBe('held');
  });

  it('lets another consumer take a session whose lock expired; the old holder then gets SessionLockLost', async (ctx) => {
    const h = harness();
    ctx.skip(!h.canOutwaitLocks, lockSkipReason(h));
    await h.sendTo('Erp', 'lapse', 'a');
    const first = await h.accept('Erp', 'lapse');
    const received = await h.receiveOne(first);
    await h.elapse(h.transport.capabilities.lockDurationMs + 50);
    const second = await h.accept('Erp', 'lapse');
    await expect(first.complete(received)).rejects.toMatchObject({
      code: TransportErrorCode.SessionLockLost,
    });
    await expect(first.renewLock()).rejects.toMatchObject({ code: TransportErrorCode.SessionLockLost });
    const again = await h.receiveOne(second);
    expect(again).toMatchObject({ body: 'a', deliveryCount: 2, sequence: received.sequence });
    await second.complete(again);
  });

  it('makes a named accept wait until that session has a message', async () => {
    const h = harness();
    await h.sendTo('Erp', 'other', 'noise');
    const waiting = h.transport.acceptSession('Erp', { sessionId: 'late', waitMs: 1_500 });
    await h.sendTo('Erp', 'late', 'reply');
    const session = await waiting;
    expect(session?.sessionId).toBe('late');
    expect(bodiesOf(await h.receiveAll(session!, 1))).toEqual(['reply']);
  });

  it('resolves a named accept with null when no message arrives in time', async () => {
    const h = harness();
    const waiting = h.transport.acceptSession('Erp', { sessionId: 'silent', waitMs: 100 });
    await h.elapse(150);
    expect(await waiting).toBeNull();
  });

  it('round-trips session state across leases, and null clears it', async () => {
    const h = harness();
    await h.sendTo('Erp', 'stateful', 'a', 'b');
    const first = await h.accept('Erp', 'stateful');
    expect(await first.getState()).toBeNull();
    const state = { mode: 'blocked', eventId: 'e-1', nested: { parked: [1, 2, 3] } };
    await first.setState(state);
    expect(await first.getState()).toEqual(state);
    await first.complete(await h.receiveOne(first));
    await first.release();
    const second = await h.accept('Erp', 'stateful');
    expect(await second.getState()).toEqual(state);
    await second.setState(null);
    expect(await second.getState()).toBeNull();
  });

  it('extends lockedUntil on renewal', async (ctx) => {
    const h = harness();
    ctx.skip(!h.canOutwaitLocks, lockSkipReason(h));
    await h.sendTo('Erp', 'renew', 'a');
    const session = await h.accept('Erp', 'renew');
    const before = session.lockedUntil.getTime();
    await h.elapse(Math.min(200, Math.floor(h.transport.capabilities.lockDurationMs / 3)));
    const renewed = await session.renewLock();
    expect(renewed.getTime()).toBeGreaterThan(before);
    expect(session.lockedUntil.getTime()).toBe(renewed.getTime());
  });

  it('returns unsettled messages on release without counting a delivery', async () => {
    const h = harness();
    await h.sendTo('Erp', 'giveback', 'a', 'b');
    const first = await h.accept('Erp', 'giveback');
    expect(bodiesOf(await h.receiveAll(first, 2))).toEqual(['a', 'b']);
    await first.release();
    const second = await h.accept('Erp', 'giveback');
    const again = await h.receiveAll(second, 2);
    expect(again.map((m) => [m.body, m.deliveryCount])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
}
