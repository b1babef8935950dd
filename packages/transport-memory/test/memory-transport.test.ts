import { Header, ManualClock, TransportErrorCode, type TransportMessage, uuidv7 } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { createMemoryTransport } from '../src/index.js';

const topology = {
  endpoints: ['Crm', 'Erp'],
  routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
};

function toErp(sessionId: string, body: string): TransportMessage {
  return { messageId: uuidv7(), sessionId, correlationId: null, headers: { [Header.To]: 'Erp' }, body };
}

async function setup(options: { lockDurationMs?: number } = {}) {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock, ...options });
  await transport.applyTopology(topology);
  return { clock, transport };
}

describe('MemoryTransport (memory-specific behaviour)', () => {
  it('reports the inputs of a removed endpoint that still hold messages, and keeps them', async () => {
    const { transport } = await setup();
    await transport.publish([{ source: 'Erp', messages: [toErp('s', 'kept')] }]);
    const changes = await transport.applyTopology({ endpoints: ['Crm'], routes: [] });
    expect(changes.retainedInputs).toEqual([
      { input: 'Erp', counts: { active: 1, scheduled: 0, deadLettered: 0, parked: 0 } },
    ]);
    expect('retainedInputs' in (await transport.applyTopology(topology))).toBe(false);
    expect((await transport.counts('Erp')).active).toBe(1);
  });

  it('wakes a waiting accept when a message is published', async () => {
    const { transport } = await setup();
    const accepting = transport.acceptSession('Erp', { waitMs: 60_000 });
    await transport.publish([{ source: 'Erp', messages: [toErp('s1', 'a')] }]);
    const session = await accepting;
    expect(session?.sessionId).toBe('s1');
  });

  it('wakes a waiting receive when the manual clock reaches a scheduled message', async () => {
    const { clock, transport } = await setup();
    await transport.publish([{ source: 'Erp', messages: [toErp('s1', 'first')] }]);
    const session = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    const [first] = await session.receive({ max: 1, waitMs: 0 });
    await session.complete(first!);
    await transport.schedule('Erp', toErp('s1', 'later'), new Date(clock.now() + 5_000));
    const receiving = session.receive({ max: 1, waitMs: 10_000 });
    clock.advance(5_000);
    const [later] = await receiving;
    expect(later?.body).toBe('later');
  });

  it('returns null from a named accept when the wait times out on the manual clock', async () => {
    const { clock, transport } = await setup();
    const accepting = transport.acceptSession('Erp', { sessionId: 'nobody', waitMs: 1_000 });
    clock.advance(1_000);
    expect(await accepting).toBeNull();
  });

  it('rejects waiters with Closed when closed, and refuses calls afterwards', async () => {
    const { transport } = await setup();
    const accepting = transport.acceptSession('Erp', { waitMs: 60_000 });
    await transport.close();
    await expect(accepting).rejects.toMatchObject({ code: TransportErrorCode.Closed });
    await expect(transport.counts('Erp')).rejects.toMatchObject({ code: TransportErrorCode.Closed });
  });

  it('throws EntityNotFound for an input outside the topology, but always knows the Resolver', async () => {
    const { transport } = await setup();
    await expect(transport.acceptSession('Nowhere', { waitMs: 0 })).rejects.toMatchObject({
      code: TransportErrorCode.EntityNotFound,
    });
    const stray = { ...toErp('s1', 'x'), headers: { [Header.To]: 'Nowhere' } };
    await expect(transport.publish([{ source: 'Nowhere', messages: [stray] }])).rejects.toMatchObject({
      code: TransportErrorCode.EntityNotFound,
    });
    expect(await transport.counts('Resolver')).toMatchObject({ active: 0 });
  });

  it('refuses a publish larger than maxBatchBytes with MessageTooLarge', async () => {
    const clock = new ManualClock();
    const transport = createMemoryTransport({ clock, maxBatchBytes: 64 });
    await transport.applyTopology(topology);
    await expect(
      transport.publish([{ source: 'Erp', messages: [toErp('s1', 'x'.repeat(100))] }]),
    ).rejects.toMatchObject({ code: TransportErrorCode.MessageTooLarge });
  });

  it('validates options with errors naming the option', () => {
    expect(() => createMemoryTransport({ lockDurationMs: 0 })).toThrow(/lockDurationMs/);
    expect(() => createMemoryTransport({ maxDeliveryCount: 1.5 })).toThrow(/maxDeliveryCount/);
  });

  it('works with the system clock: a receive waits with a timer and returns empty on timeout', async () => {
    const transport = createMemoryTransport({ lockDurationMs: 1_000 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Erp', messages: [toErp('s1', 'a')] }]);
    const session = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    await session.receive({ max: 1, waitMs: 0 });
    const started = Date.now();
    expect(await session.receive({ max: 1, waitMs: 50 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    await transport.close();
  });

  it('expires a lock so another consumer can take the session; the old lease then fails with SessionLockLost', async () => {
    const { clock, transport } = await setup({ lockDurationMs: 1_000 });
    await transport.publish([{ source: 'Erp', messages: [toErp('s1', 'a')] }]);
    const first = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    const [message] = await first.receive({ max: 1, waitMs: 0 });
    clock.advance(1_000);
    const second = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    expect(second.sessionId).toBe('s1');
    await expect(first.complete(message!)).rejects.toMatchObject({
      code: TransportErrorCode.SessionLockLost,
    });
    const [again] = await second.receive({ max: 1, waitMs: 0 });
    expect(again?.deliveryCount).toBe(2);
  });

  it('dead-letters a message whose lease lapsed maxDeliveryCount times, on the next accept', async () => {
    const clock = new ManualClock();
    const transport = createMemoryTransport({ clock, lockDurationMs: 1_000, maxDeliveryCount: 2 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Erp', messages: [toErp('s1', 'stuck'), toErp('s1', 'after')] }]);
    for (let lapse = 0; lapse < 2; lapse++) {
      const session = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
      await session.receive({ max: 1, waitMs: 0 });
      clock.advance(1_000);
    }
    const session = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    const [next] = await session.receive({ max: 1, waitMs: 0 });
    expect(next?.body).toBe('after');
    const [dead] = await transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({ body: 'stuck', deliveryCount: 2, reason: 'MaxDeliveryCountExceeded' });
  });

  it('offers ready sessions round-robin, so one busy session does not starve the others', async () => {
    const { transport } = await setup();
    await transport.publish([
      { source: 'Erp', messages: [toErp('a', '1'), toErp('a', '2'), toErp('b', '1')] },
    ]);
    const first = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    await first.release();
    const second = (await transport.acceptSession('Erp', { waitMs: 0 }))!;
    expect([first.sessionId, second.sessionId]).toEqual(['a', 'b']);
  });
});
