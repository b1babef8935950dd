import { Header, isTransportError, RESOLVER_INPUT, TransportErrorCode } from '@nimbus/core';
import { expect, it } from 'vitest';
import type { SqlTransport, SqlTransportOptions } from '../src/index.js';
import { direct, event, topology } from './fixtures.js';

export type Open = (options?: SqlTransportOptions) => Promise<SqlTransport>;

/** Focused behaviour of the SQL transport, run against each dialect. */
export function describeSqlBehaviour(open: Open): void {
  it('routes a publish to each consumer and the Resolver, FIFO per session with increasing sequences', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([
      { source: 'Crm', messages: [event('s1', { n: 1 }), event('s1', { n: 2 }), event('s2', { n: 3 })] },
    ]);
    expect((await transport.counts('Erp')).active).toBe(3);
    expect((await transport.counts(RESOLVER_INPUT)).active).toBe(3);
    const before = Date.now();
    const session = await transport.acceptSession('Erp', { sessionId: 's1', waitMs: 0 });
    expect(session).not.toBeNull();
    const after = Date.now();
    // Reported on the local clock: 30 s (the default lease) from when the accept was sent.
    expect(session!.lockedUntil.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(session!.lockedUntil.getTime()).toBeLessThanOrEqual(after + 30_000);
    const received = await session!.receive({ max: 10, waitMs: 0 });
    expect(received.map((m) => JSON.parse(m.body).n)).toEqual([1, 2]);
    expect(received.map((m) => m.sequence)).toEqual([1, 2]);
    expect(received[0]!.headers[Header.From]).toBe('Crm');
    expect(received[0]!.headers[Header.To]).toBe('Erp');
    expect(received[0]!.deliveryCount).toBe(1);
    for (const message of received) await session!.complete(message);
    expect((await transport.counts('Erp')).active).toBe(1);
    await session!.release();
  });

  it('gives one session to one consumer at a time and hands it over on release', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('only')] }]);
    const first = await transport.acceptSession('Erp', { waitMs: 0 });
    expect(first?.sessionId).toBe('only');
    expect(await transport.acceptSession('Erp', { waitMs: 30 })).toBeNull();
    const [message] = await first!.receive({ max: 1, waitMs: 0 });
    await first!.release();
    const second = await transport.acceptSession('Erp', { waitMs: 0 });
    const [again] = await second!.receive({ max: 1, waitMs: 0 });
    expect(again!.messageId).toBe(message!.messageId);
    expect(again!.deliveryCount).toBe(1);
    await expect(first!.complete(message!)).rejects.toMatchObject({
      code: TransportErrorCode.SessionLockLost,
    });
  });

  it('wakes a waiting accept when a message is published', async () => {
    const transport = await open({ pollIntervalMs: 5000 });
    await transport.applyTopology(topology);
    const started = Date.now();
    const waiting = transport.acceptSession('Erp', { waitMs: 4000 });
    setTimeout(() => void transport.publish([{ source: 'Crm', messages: [event('late')] }]), 50);
    const session = await waiting;
    expect(session?.sessionId).toBe('late');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('abandon redelivers with count + 1 and dead-letters at the maximum', async () => {
    const transport = await open({ maxDeliveryCount: 2 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('a')] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    const [first] = await session!.receive({ max: 1, waitMs: 0 });
    await session!.abandon(first!);
    const [second] = await session!.receive({ max: 1, waitMs: 0 });
    expect(second!.deliveryCount).toBe(2);
    await expect(session!.complete(first!)).rejects.toMatchObject({
      code: TransportErrorCode.MessageLockLost,
    });
    await session!.abandon(second!);
    expect(await session!.receive({ max: 1, waitMs: 0 })).toEqual([]);
    const [dead] = await transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({
      reason: 'MaxDeliveryCountExceeded',
      deliveryCount: 2,
      messageId: first!.messageId,
    });
    expect(await transport.requeueDeadLetters('Erp')).toBe(1);
    expect(await transport.counts('Erp')).toMatchObject({ active: 1, deadLettered: 0 });
  });

  it('complete applies publish, park, unpark and state in one transaction', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('s', { n: 1 }), event('s', { n: 2 })] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    const [one, two] = await session!.receive({ max: 2, waitMs: 0 });
    const response = {
      ...event('s'),
      headers: { [Header.To]: RESOLVER_INPUT, [Header.MessageType]: 'ResolutionResponse' },
    };
    await session!.complete(one!, {
      publish: [{ source: 'Erp', messages: [response] }],
      park: [{ sequence: two!.sequence, message: two! }],
      state: { mode: 'blocked' },
    });
    expect(await session!.getState()).toEqual({ mode: 'blocked' });
    expect((await session!.readParked(0, 10)).map((p) => p.sequence)).toEqual([2]);
    const resolver = await transport.peek(RESOLVER_INPUT, { sessionId: 's' });
    expect(resolver.at(-1)?.headers[Header.From]).toBe('Erp');
    await session!.complete(two!, { unpark: [2], state: null });
    expect(await session!.getState()).toBeNull();
    expect(await transport.counts('Erp')).toMatchObject({ active: 0, parked: 0 });
  });

  it('complete with state and a copy back to its own line (Retry) appends after the line, under the lease', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('own', { n: 1 }), event('own', { n: 2 })] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    const [first] = await session!.receive({ max: 1, waitMs: 0 });
    const retry = { ...event('own', { n: 'retry' }), headers: { [Header.To]: 'Retry' } };
    await session!.complete(first!, {
      publish: [{ source: 'Erp', messages: [retry] }],
      state: { mode: 'open', n: 1 },
    });
    expect(await session!.getState()).toEqual({ mode: 'open', n: 1 });
    const rest = await session!.receive({ max: 10, waitMs: 0 });
    expect(rest.map((m) => JSON.parse(m.body).n)).toEqual([2, 'retry']);
    expect(rest.map((m) => m.sequence)).toEqual([2, 3]);
    expect(rest[1]!.headers[Header.From]).toBe('Retry');
    await session!.deadLetter(rest[0]!, {
      reason: 'Rejected',
      description: 'bad payload',
      effects: { state: null },
    });
    expect(await session!.getState()).toBeNull();
    expect(await transport.peekDeadLetters('Erp')).toMatchObject([
      { reason: 'Rejected', description: 'bad payload' },
    ]);
    await session!.complete(rest[1]!);
    await session!.release();
    expect(await transport.counts('Erp')).toMatchObject({ active: 0, deadLettered: 1 });
    expect(await transport.acceptSession('Erp', { waitMs: 0 })).toBeNull();
  });

  it('a settle whose lease is gone changes nothing (atomicity)', async () => {
    const transport = await open({ lockDurationMs: 200 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('x')] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    const [message] = await session!.receive({ max: 1, waitMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = { ...event('x'), headers: { [Header.To]: RESOLVER_INPUT } };
    const before = (await transport.counts(RESOLVER_INPUT)).active;
    const error = await session!
      .complete(message!, { publish: [{ source: 'Erp', messages: [response] }] })
      .catch((e) => e);
    expect(isTransportError(error, TransportErrorCode.SessionLockLost)).toBe(true);
    const withState = await session!.complete(message!, { state: { mode: 'blocked' } }).catch((e) => e);
    expect(isTransportError(withState, TransportErrorCode.SessionLockLost)).toBe(true);
    expect((await transport.counts(RESOLVER_INPUT)).active).toBe(before);
    expect((await transport.counts('Erp')).active).toBe(1);
    const next = await transport.acceptSession('Erp', { waitMs: 0 });
    const [redelivered] = await next!.receive({ max: 1, waitMs: 0 });
    expect(redelivered!.deliveryCount).toBe(2);
    expect(await next!.getState()).toBeNull();
  });

  it('a lease that ends without release hands out no empty session afterwards', async () => {
    const transport = await open({ lockDurationMs: 200 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('crashed')] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    for (const message of await session!.receive({ max: 10, waitMs: 0 })) await session!.complete(message);
    // The holder "dies" here: no release. Once the lease lapses the session has nothing to offer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await transport.acceptSession('Erp', { waitMs: 0 })).toBeNull();
    await transport.publish([{ source: 'Crm', messages: [event('crashed', { n: 2 })] }]);
    const next = await transport.acceptSession('Erp', { waitMs: 0 });
    expect((await next!.receive({ max: 10, waitMs: 0 })).map((m) => JSON.parse(m.body).n)).toEqual([2]);
  });

  it('schedules, cancels and promotes scheduled messages with sequences in visibility order', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    const handle = await transport.schedule('Crm', event('s'), new Date(Date.now() + 60_000));
    expect((await transport.counts('Erp')).scheduled).toBe(1);
    await transport.cancelScheduled(handle);
    await expect(transport.cancelScheduled(handle)).rejects.toMatchObject({
      code: TransportErrorCode.MessageNotFound,
    });
    await transport.schedule('Crm', event('s', { n: 'later' }), new Date(Date.now() + 150));
    await transport.publish([{ source: 'Crm', messages: [event('s', { n: 'now' })] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    const [now] = await session!.receive({ max: 1, waitMs: 0 });
    const [later] = await session!.receive({ max: 1, waitMs: 2000 });
    expect(JSON.parse(now!.body).n).toBe('now');
    expect(JSON.parse(later!.body).n).toBe('later');
    expect(later!.sequence).toBeGreaterThan(now!.sequence);
  });

  it('applies topology idempotently and reports changes', async () => {
    const transport = await open();
    const first = await transport.applyTopology(topology);
    expect(first.addedEndpoints).toEqual(['Crm', 'Erp']);
    const again = await transport.applyTopology(topology);
    expect(again).toStrictEqual({
      addedEndpoints: [],
      removedEndpoints: [],
      addedRoutes: [],
      removedRoutes: [],
    });
    expect(await transport.getTopology()).toEqual(topology);
    await expect(transport.acceptSession('Nope', { waitMs: 0 })).rejects.toMatchObject({
      code: TransportErrorCode.EntityNotFound,
    });
  });

  it('reports and keeps the messages of a removed endpoint', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Erp', messages: [direct('Erp', 'kept')] }]);
    const changes = await transport.applyTopology({ endpoints: ['Crm'], routes: [] });
    expect(changes.removedEndpoints).toEqual(['Erp']);
    expect(changes.retainedInputs).toEqual([
      { input: 'Erp', counts: { active: 1, scheduled: 0, deadLettered: 0, parked: 0 } },
    ]);
    await transport.applyTopology(topology);
    expect((await transport.counts('Erp')).active).toBe(1);
  });

  it('operator views: peek, counts and purge', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Erp', messages: [direct('Erp', 'p1'), direct('Erp', 'p2')] }]);
    expect((await transport.peek('Erp')).map((m) => m.sessionId)).toEqual(['p1', 'p2']);
    expect(await transport.purge('Erp', 'active')).toBe(2);
    expect(await transport.acceptSession('Erp', { waitMs: 0 })).toBeNull();
    await transport.publish([{ source: 'Erp', messages: [direct('Erp', 'p1')] }]);
    const session = await transport.acceptSession('Erp', { waitMs: 0 });
    expect((await session!.receive({ max: 5, waitMs: 0 })).length).toBe(1);
  });

  it('rejects a publish over the batch budget', async () => {
    const transport = await open({ maxBatchBytes: 100 });
    await transport.applyTopology(topology);
    await expect(
      transport.publish([{ source: 'Crm', messages: [event('big', { text: 'x'.repeat(200) })] }]),
    ).rejects.toMatchObject({ code: TransportErrorCode.MessageTooLarge });
  });
}
