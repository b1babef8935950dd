import { expect, it } from 'vitest';
import { Header } from '../../envelope/headers.js';
import type { BatchSettlement, SessionHandle } from '../../transport/transport.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, type Harness, message } from '../harness.js';

/** `settleMany` of the handle, or null (with the case skipped) when the transport does not declare it. */
function settleManyOf(h: Harness, session: SessionHandle, skip: (note: string) => void) {
  if (!h.transport.capabilities.settleMany || typeof session.settleMany !== 'function') {
    skip('the transport does not declare capabilities.settleMany');
    return null;
  }
  return (settlements: readonly BatchSettlement[]) => session.settleMany!(settlements);
}

function toResolver(sessionId: string, body: string) {
  return message({ sessionId, to: 'Resolver', body, headers: { [Header.EventId]: body } });
}

export function settleManyCases(harness: () => Harness): void {
  it('applies several settlements in order, as the same calls one by one would', async (context) => {
    const h = harness();
    await h.sendTo('Erp', 'batch', 'a', 'b', 'c', 'd');
    const session = await h.accept('Erp', 'batch');
    const settleMany = settleManyOf(h, session, (note) => context.skip(note));
    if (!settleMany) return;
    const [a, b, c] = await h.receiveAll(session, 3);
    await settleMany([
      {
        message: a!,
        effects: {
          publish: [{ source: 'Erp', messages: [toResolver('batch', 'r-a')] }],
          park: [{ sequence: 1, message: message({ sessionId: 'batch', to: 'Erp', body: 'p1' }) }],
          state: { step: 1 },
        },
      },
      { message: b!, deadLetter: { reason: 'Poison', description: 'bad b' } },
      {
        message: c!,
        effects: {
          publish: [{ source: 'Erp', messages: [toResolver('batch', 'r-c')] }],
          deadLetterParked: [{ sequence: 1, reason: 'ReplayFailed', description: null }],
          state: { step: 3 },
        },
      },
    ]);
    expect(await session.getState()).toEqual({ step: 3 });
    expect(await session.readParked(0, 10)).toEqual([]);
    const dead = await h.transport.peekDeadLetters('Erp');
    expect(dead.map((d) => [d.body, d.reason, d.description])).toEqual([
      ['b', 'Poison', 'bad b'],
      ['p1', 'ReplayFailed', null],
    ]);
    expect(bodiesOf(await h.transport.peek('Resolver', { sessionId: 'batch' })).slice(-2)).toEqual([
      'r-a',
      'r-c',
    ]);
    expect(bodiesOf(await h.receiveAll(session, 1))).toEqual(['d']);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 1, parked: 0, deadLettered: 2 });
  });

  it('applies nothing when one settlement fails, and the messages stay held', async (context) => {
    const h = harness();
    await h.sendTo('Erp', 'batch', 'a', 'b', 'c');
    const session = await h.accept('Erp', 'batch');
    const settleMany = settleManyOf(h, session, (note) => context.skip(note));
    if (!settleMany) return;
    const [a, b, c] = await h.receiveAll(session, 3);
    await session.complete(b!);
    await expect(
      settleMany([
        { message: a!, effects: { publish: [{ source: 'Erp', messages: [toResolver('batch', 'r-a')] }] } },
        { message: b! },
      ]),
    ).rejects.toMatchObject({ code: TransportErrorCode.MessageLockLost });
    await expect(
      settleMany([
        { message: a!, effects: { state: { touched: true } } },
        { message: c!, effects: { deadLetterParked: [{ sequence: 7, reason: 'x', description: null }] } },
      ]),
    ).rejects.toMatchObject({ code: TransportErrorCode.MessageNotFound });
    await expect(settleMany([{ message: a! }, { message: a! }])).rejects.toMatchObject({
      code: TransportErrorCode.InvalidArgument,
    });
    expect(await session.getState()).toBeNull();
    expect(bodiesOf(await h.transport.peek('Resolver', { sessionId: 'batch' }))).not.toContain('r-a');
    await settleMany([{ message: a! }, { message: c! }]);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 0 });
  });

  it('fails with SessionLockLost once the lease has lapsed', async (context) => {
    const h = harness();
    if (!h.canOutwaitLocks) return context.skip('the lock duration is too long to wait out in real time');
    await h.sendTo('Erp', 'lapsed', 'a', 'b');
    const session = await h.accept('Erp', 'lapsed');
    const settleMany = settleManyOf(h, session, (note) => context.skip(note));
    if (!settleMany) return;
    const [a, b] = await h.receiveAll(session, 2);
    await h.elapse(h.transport.capabilities.lockDurationMs + 50);
    await expect(settleMany([{ message: a! }, { message: b! }])).rejects.toMatchObject({
      code: TransportErrorCode.SessionLockLost,
    });
  });
}
