import { expect, it } from 'vitest';
import type { SessionHandle } from '../../transport/transport.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { type Harness, message } from '../harness.js';

/** Leases `sessionId` at Erp and parks `bodies` at sequences 1, 2, … with the first message of the session. */
async function parkInSession(h: Harness, sessionId: string, ...bodies: string[]): Promise<SessionHandle> {
  await h.sendTo('Erp', sessionId, 'trigger', 'next');
  const session = await h.accept('Erp', sessionId);
  const trigger = await h.receiveOne(session);
  await session.complete(trigger, {
    park: bodies.map((body, index) => ({
      sequence: index + 1,
      message: message({ sessionId, to: 'Erp', body }),
    })),
  });
  return session;
}

export function parkedDeadLetterCases(harness: () => Harness): void {
  it('moves parked messages to the dead-letter list with the settlement, with reason and description', async () => {
    const h = harness();
    const session = await parkInSession(h, 'replay', 'p1', 'p2', 'p3');
    const [p1, p2] = await session.readParked(0, 2);
    const next = await h.receiveOne(session);
    await session.complete(next, {
      deadLetterParked: [
        { sequence: 1, reason: 'ReplayFailed', description: 'handler threw' },
        { sequence: 2, reason: 'ReplayFailed', description: null },
      ],
    });
    expect((await session.readParked(0, 10)).map((p) => p.message.body)).toEqual(['p3']);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 1, deadLettered: 2 });
    const dead = await h.transport.peekDeadLetters('Erp');
    expect(dead.map((d) => [d.body, d.reason, d.description])).toEqual([
      ['p1', 'ReplayFailed', 'handler threw'],
      ['p2', 'ReplayFailed', null],
    ]);
    expect(dead[0]).toMatchObject({ input: 'Erp', sessionId: 'replay', messageId: p1!.message.messageId });
    expect(dead[1]!.messageId).toBe(p2!.message.messageId);
    expect(dead[0]!.deadLetteredAt).toBeInstanceOf(Date);
  });

  it('requeues a dead-lettered parked message into its session line', async () => {
    const h = harness();
    const session = await parkInSession(h, 'replay', 'p1');
    await session.complete(await h.receiveOne(session), {
      deadLetterParked: [{ sequence: 1, reason: 'ReplayFailed', description: null }],
    });
    await session.release();
    const [dead] = await h.transport.peekDeadLetters('Erp');
    expect(await h.transport.requeueDeadLetters('Erp', [dead!.id])).toBe(1);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 1, parked: 0, deadLettered: 0 });
    const again = await h.accept('Erp', 'replay');
    const requeued = await h.receiveOne(again);
    expect(requeued).toMatchObject({ body: 'p1', sessionId: 'replay', messageId: dead!.messageId });
    expect(await again.readParked(0, 10)).toEqual([]);
  });

  it('dead-letters parked messages together with a dead-lettered received message', async () => {
    const h = harness();
    const session = await parkInSession(h, 'replay', 'p1');
    await session.deadLetter(await h.receiveOne(session), {
      reason: 'Poison',
      description: null,
      effects: {
        deadLetterParked: [{ sequence: 1, reason: 'ReplayFailed', description: null }],
      },
    });
    const dead = await h.transport.peekDeadLetters('Erp');
    expect(dead.map((d) => [d.body, d.reason]).sort()).toEqual([
      ['next', 'Poison'],
      ['p1', 'ReplayFailed'],
    ]);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 0, deadLettered: 2 });
  });

  it('fails the whole settlement for a sequence that is not parked, changing nothing', async () => {
    const h = harness();
    const session = await parkInSession(h, 'replay', 'p1');
    const next = await h.receiveOne(session);
    await expect(
      session.complete(next, {
        deadLetterParked: [
          { sequence: 1, reason: 'ReplayFailed', description: null },
          { sequence: 9, reason: 'ReplayFailed', description: null },
        ],
        state: { touched: true },
      }),
    ).rejects.toMatchObject({ code: TransportErrorCode.MessageNotFound });
    expect((await session.readParked(0, 10)).map((p) => p.message.body)).toEqual(['p1']);
    expect(await session.getState()).toBeNull();
    expect(await h.transport.peekDeadLetters('Erp')).toEqual([]);
    await session.complete(next);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, parked: 1, deadLettered: 0 });
  });

  it('rejects a sequence named twice, or also parked or unparked, before changing anything', async () => {
    const h = harness();
    const session = await parkInSession(h, 'replay', 'p1');
    const next = await h.receiveOne(session);
    const entry = { sequence: 1, reason: 'ReplayFailed', description: null };
    for (const effects of [
      { deadLetterParked: [entry, entry] },
      { deadLetterParked: [entry], unpark: [1] },
      { deadLetterParked: [{ ...entry, reason: '' }] },
    ]) {
      await expect(session.complete(next, effects)).rejects.toMatchObject({
        code: TransportErrorCode.InvalidArgument,
      });
    }
    expect(await session.readParked(0, 10)).toHaveLength(1);
    await session.complete(next);
  });
}
