import { expect, it } from 'vitest';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, type Harness, message } from '../harness.js';

export function settlementCases(harness: () => Harness): void {
  it('removes a completed message for good', async () => {
    const h = harness();
    await h.sendTo('Erp', 'done', 'a', 'b');
    const session = await h.accept('Erp', 'done');
    const first = await h.receiveOne(session);
    await session.complete(first);
    const secondTry = await session.complete(first).then(
      () => 'settled twice',
      (error: { code?: string }) => error.code,
    );
    expect([TransportErrorCode.MessageLockLost, TransportErrorCode.MessageNotFound]).toContain(secondTry);
    await session.release();
    const again = await h.accept('Erp', 'done');
    expect(bodiesOf(await h.receiveAll(again, 1))).toEqual(['b']);
    expect(await again.receive({ max: 1, waitMs: 0 })).toEqual([]);
    expect((await h.transport.counts('Erp')).active).toBe(1);
  });

  it('redelivers an abandoned message with its delivery count + 1, ahead of later ones', async () => {
    const h = harness();
    await h.sendTo('Erp', 'retry', 'a', 'b');
    const session = await h.accept('Erp', 'retry');
    const first = await h.receiveOne(session);
    await session.abandon(first);
    const again = await h.receiveOne(session);
    expect(again).toMatchObject({
      body: 'a',
      sequence: first.sequence,
      deliveryCount: 2,
      messageId: first.messageId,
    });
  });

  it('dead-letters a message once it reaches the max delivery count, with a reason that says so', async () => {
    const h = harness();
    const max = h.transport.capabilities.maxDeliveryCount;
    const [sent] = await h.sendTo('Erp', 'poison', 'bad');
    const session = await h.accept('Erp', 'poison');
    for (let attempt = 1; attempt <= max; attempt++) {
      const received = await h.receiveOne(session);
      expect(received.deliveryCount).toBe(attempt);
      await session.abandon(received);
    }
    expect(await session.receive({ max: 1, waitMs: 0 })).toEqual([]);
    const [dead] = await h.transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({
      messageId: sent!.messageId,
      sessionId: 'poison',
      input: 'Erp',
      deliveryCount: max,
    });
    expect(dead!.reason).toMatch(/max\w*\s*delivery\s*count/i);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 1 });
  });

  it('dead-letters with the given reason and description, keeping the message', async () => {
    const h = harness();
    const [sent] = await h.sendTo('Erp', 'dl', '{"bad":true}', 'next');
    const session = await h.accept('Erp', 'dl');
    const received = await h.receiveOne(session);
    await session.deadLetter(received, {
      reason: 'InvalidMessage',
      description: 'Body field "id" is missing',
    });
    const other = await h.receiveOne(session);
    await session.deadLetter(other, { reason: 'Skipped', description: null });
    const dead = await h.transport.peekDeadLetters('Erp');
    expect(dead).toHaveLength(2);
    expect(dead[0]).toMatchObject({
      messageId: sent!.messageId,
      sessionId: 'dl',
      correlationId: sent!.correlationId,
      headers: sent!.headers,
      body: '{"bad":true}',
      input: 'Erp',
      reason: 'InvalidMessage',
      description: 'Body field "id" is missing',
      deliveryCount: 1,
    });
    expect(dead[0]!.deadLetteredAt).toBeInstanceOf(Date);
    expect(dead[1]).toMatchObject({ reason: 'Skipped', description: null });
    expect(new Set(dead.map((d) => d.id)).size).toBe(2);
  });

  it('applies settle effects with the settlement: publish, park, unpark and state', async () => {
    const h = harness();
    await h.sendTo('Erp', 'fx', 'a', 'b');
    const session = await h.accept('Erp', 'fx');
    const first = await h.receiveOne(session);
    await session.complete(first, {
      publish: [
        { source: 'Erp', messages: [message({ sessionId: 'fx', to: 'Resolver', body: 'response' })] },
      ],
      park: [{ sequence: first.sequence, message: first }],
      state: { mode: 'blocked', eventId: 'e-a' },
    });
    expect(await session.getState()).toEqual({ mode: 'blocked', eventId: 'e-a' });
    expect((await session.readParked(0, 10)).map((p) => p.sequence)).toEqual([first.sequence]);
    expect(bodiesOf(await h.transport.peek('Resolver'))).toContain('response');
    const second = await h.receiveOne(session);
    await session.deadLetter(second, {
      reason: 'Broken',
      description: 'details',
      effects: { unpark: [first.sequence], state: null },
    });
    expect(await session.readParked(0, 10)).toEqual([]);
    expect(await session.getState()).toBeNull();
  });
}

export function atomicSettlementCases(harness: () => Harness): void {
  it('leaves everything unchanged when a settlement with effects fails', async (ctx) => {
    const h = harness();
    ctx.skip(
      !h.transport.capabilities.atomicSettleAndPublish,
      'transport declares atomicSettleAndPublish = false',
    );
    await h.sendTo('Erp', 'atomic', 'a');
    const session = await h.accept('Erp', 'atomic');
    await session.setState({ mode: 'open' });
    const received = await h.receiveOne(session);
    const toNowhere = message({ sessionId: 'atomic', to: 'Retry', body: 'lost?' });
    await expect(
      session.complete(received, {
        publish: [
          { source: 'Erp', messages: [message({ sessionId: 'atomic', to: 'Resolver', body: 'fine' })] },
          { source: 'NoSuchEndpoint', messages: [toNowhere] },
        ],
        park: [{ sequence: received.sequence, message: received }],
        state: { mode: 'blocked' },
      }),
    ).rejects.toMatchObject({ code: TransportErrorCode.EntityNotFound });
    expect(await session.getState()).toEqual({ mode: 'open' });
    expect(await session.readParked(0, 10)).toEqual([]);
    expect(bodiesOf(await h.transport.peek('Resolver'))).not.toContain('fine');
    await session.complete(received);
    expect((await h.transport.counts('Erp')).active).toBe(0);
  });
}
