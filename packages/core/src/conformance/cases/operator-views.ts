import { expect, it } from 'vitest';
import { diffTopology, hasChanges, routeKey, type TopologyChanges } from '../../transport/topology.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, CONFORMANCE_TOPOLOGY, type Harness, message } from '../harness.js';

async function deadLetterAll(h: Harness, sessionId: string, count: number): Promise<void> {
  await deadLetterAllAt(h, 'Erp', sessionId, count);
}

async function deadLetterAllAt(h: Harness, input: string, sessionId: string, count: number): Promise<void> {
  const session = await h.accept(input, sessionId);
  for (const received of await h.receiveAll(session, count))
    await session.deadLetter(received, { reason: 'Test', description: null });
  await session.release();
}

function sortedChanges(changes: TopologyChanges) {
  return {
    addedEndpoints: [...changes.addedEndpoints].sort(),
    removedEndpoints: [...changes.removedEndpoints].sort(),
    addedRoutes: changes.addedRoutes.map(routeKey).sort(),
    removedRoutes: changes.removedRoutes.map(routeKey).sort(),
  };
}

export function operatorViewCases(harness: () => Harness): void {
  it('counts active, scheduled, dead-lettered and parked messages per input', async () => {
    const h = harness();
    await h.sendTo('Erp', 'a', '1', '2', '3');
    await h.sendTo('Erp', 'b', '4');
    await h.transport.schedule('Erp', message({ sessionId: 'c', to: 'Retry' }), new Date(h.now() + 60_000));
    const session = await h.accept('Erp', 'b');
    const received = await h.receiveOne(session);
    await session.deadLetter(received, {
      reason: 'Test',
      description: null,
      effects: { park: [{ sequence: 7, message: received }] },
    });
    expect(await h.transport.counts('Erp')).toEqual({ active: 3, scheduled: 1, deadLettered: 1, parked: 1 });
    expect(await h.transport.counts('Crm')).toEqual({ active: 0, scheduled: 0, deadLettered: 0, parked: 0 });
  });

  it('peeks without locking or counting a delivery, filtered by session and limited by max', async () => {
    const h = harness();
    await h.sendTo('Erp', 'a', '1', '2');
    await h.sendTo('Erp', 'b', '3');
    const all = await h.transport.peek('Erp');
    expect(bodiesOf(all).sort()).toEqual(['1', '2', '3']);
    expect(all.every((m) => m.input === 'Erp' && m.deliveryCount === 0)).toBe(true);
    expect(all[0]!.enqueuedAt).toBeInstanceOf(Date);
    expect(bodiesOf(await h.transport.peek('Erp', { sessionId: 'a' }))).toEqual(['1', '2']);
    expect(await h.transport.peek('Erp', { max: 1 })).toHaveLength(1);
    const session = await h.accept('Erp', 'a');
    expect((await h.receiveOne(session)).deliveryCount).toBe(1);
  });

  it('purges one kind of message at a time, or all, and says how many went', async () => {
    const h = harness();
    await h.sendTo('Erp', 'dead', 'x', 'y');
    await deadLetterAll(h, 'dead', 2);
    await h.sendTo('Erp', 'live', '1', '2', '3');
    await h.transport.schedule('Erp', message({ sessionId: 'c', to: 'Retry' }), new Date(h.now() + 60_000));
    expect(await h.transport.purge('Erp', 'deadLettered')).toBe(2);
    expect(await h.transport.counts('Erp')).toEqual({ active: 3, scheduled: 1, deadLettered: 0, parked: 0 });
    expect(await h.transport.purge('Erp', 'active')).toBe(3);
    expect(await h.transport.purge('Erp', 'all')).toBe(1);
    expect(await h.transport.counts('Erp')).toEqual({ active: 0, scheduled: 0, deadLettered: 0, parked: 0 });
    expect(await h.tryAccept('Erp')).toBeNull();
  });

  it('requeues dead-lettered messages, all or by id, as fresh deliveries', async () => {
    const h = harness();
    await h.sendTo('Erp', 'dlq', 'a', 'b', 'c');
    await deadLetterAll(h, 'dlq', 3);
    const dead = await h.transport.peekDeadLetters('Erp');
    expect(bodiesOf(dead)).toEqual(['a', 'b', 'c']);
    expect(await h.transport.requeueDeadLetters('Erp', [dead[1]!.id])).toBe(1);
    expect(bodiesOf(await h.transport.peekDeadLetters('Erp'))).toEqual(['a', 'c']);
    const session = await h.accept('Erp', 'dlq');
    const requeued = await h.receiveOne(session);
    expect(requeued).toMatchObject({
      body: 'b',
      deliveryCount: 1,
      messageId: dead[1]!.messageId,
      sessionId: 'dlq',
    });
    await session.complete(requeued);
    await session.release();
    expect(await h.transport.requeueDeadLetters('Erp')).toBe(2);
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 2, deadLettered: 0 });
  });

  it('applies a topology idempotently and reports what changed', async () => {
    const h = harness();
    const applied = await h.transport.getTopology();
    expect([...applied.endpoints].sort()).toEqual([...CONFORMANCE_TOPOLOGY.endpoints].sort());
    expect(applied.routes.map(routeKey).sort()).toEqual(CONFORMANCE_TOPOLOGY.routes.map(routeKey).sort());
    const again = await h.transport.applyTopology(CONFORMANCE_TOPOLOGY);
    expect(hasChanges(again)).toBe(false);
    const grown = {
      endpoints: [...CONFORMANCE_TOPOLOGY.endpoints, 'Shipping'],
      routes: [
        ...CONFORMANCE_TOPOLOGY.routes.slice(1),
        { source: 'Erp', eventTypeId: 'OrderPlaced', target: 'Shipping' },
      ],
    };
    const changes = await h.transport.applyTopology(grown);
    expect(sortedChanges(changes)).toEqual(sortedChanges(diffTopology(CONFORMANCE_TOPOLOGY, grown)));
    expect(hasChanges(await h.transport.applyTopology(grown))).toBe(false);
    await h.send('Erp', message({ sessionId: 'o', to: 'OrderPlaced', eventTypeId: 'OrderPlaced' }));
    expect((await h.transport.counts('Shipping')).active).toBe(1);
  });

  it('keeps the messages of a removed endpoint and says so when it reports retained inputs', async () => {
    const h = harness();
    await h.sendTo('Billing', 'kept', 'a', 'b');
    await deadLetterAllAt(h, 'Billing', 'kept', 1);
    const removed = await h.transport.applyTopology({
      endpoints: ['Crm', 'Erp'],
      routes: CONFORMANCE_TOPOLOGY.routes.filter((r) => r.target !== 'Billing'),
    });
    expect(removed.removedEndpoints).toEqual(['Billing']);
    await expect(h.tryAccept('Billing')).rejects.toMatchObject({ code: TransportErrorCode.EntityNotFound });
    if (removed.retainedInputs === undefined) return; // the transport does not report (or keep) them
    expect(removed.retainedInputs).toEqual([
      { input: 'Billing', counts: { active: 1, scheduled: 0, deadLettered: 1, parked: 0 } },
    ]);
    await h.transport.applyTopology(CONFORMANCE_TOPOLOGY);
    expect(await h.transport.counts('Billing')).toEqual({
      active: 1,
      scheduled: 0,
      deadLettered: 1,
      parked: 0,
    });
  });
}
