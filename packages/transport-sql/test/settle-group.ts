import { isTransportError, type ReceivedMessage, type SessionHandle, TransportErrorCode } from '@nimbus/core';
import { expect, it } from 'vitest';
import type { SqlTransport } from '../src/index.js';
import type { Open } from './behaviour.js';
import { event, topology } from './fixtures.js';

interface Held {
  readonly session: SessionHandle;
  readonly messages: ReceivedMessage[];
}

async function leaseEach(transport: SqlTransport, keys: readonly string[], perKey: number): Promise<Held[]> {
  for (let i = 0; i < perKey; i++)
    await transport.publish([{ source: 'Crm', messages: keys.map((key) => event(key, { i })) }]);
  const held: Held[] = [];
  for (const key of keys) {
    const session = (await transport.acceptSession('Erp', { sessionId: key, waitMs: 0 }))!;
    held.push({ session, messages: await session.receive({ max: perKey, waitMs: 0 }) });
  }
  return held;
}

/** Group commit across sessions (settle-group.ts): observable through the counters and what is left on the lines. */
export function describeSettleGroup(open: Open): void {
  it('settles the completions of several sessions handed in together in one group, in order per session', async () => {
    const transport = await open({ settleGroupConcurrency: 1 });
    await transport.applyTopology(topology);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const held = await leaseEach(transport, keys, 3);
    // The first completion finds the slot free and goes alone; the others arrive meanwhile and form a group.
    await Promise.all(
      held.map(async ({ session, messages }) => {
        await session.complete(messages[0]!);
        await session.settleMany!(messages.slice(1).map((message) => ({ message })));
      }),
    );
    const { groups, settlements, refusedGroups } = transport.settleGroupStats;
    expect(refusedGroups).toBe(0);
    expect(groups).toBeGreaterThanOrEqual(1);
    // Every group holds at least two leases' settlements (a lone one takes the one-lease path).
    expect(settlements).toBeGreaterThanOrEqual(2 * groups);
    for (const { session } of held) await session.release();
    expect((await transport.counts('Erp')).active).toBe(0);
    // Nothing was left behind or settled twice: the next message is the only one on its line.
    await transport.publish([{ source: 'Crm', messages: [event('a', { i: 99 })] }]);
    const again = (await transport.acceptSession('Erp', { sessionId: 'a', waitMs: 0 }))!;
    const next = await again.receive({ max: 5, waitMs: 0 });
    expect(next.map((message) => JSON.parse(message.body))).toEqual([{ i: 99 }]);
    await again.complete(next[0]!);
    await again.release();
  });

  it('refuses the settlement of a lease taken over inside a group, and settles the others of that group', async () => {
    const transport = await open({ settleGroupConcurrency: 1, lockDurationMs: 300 });
    await transport.applyTopology(topology);
    // The first lease lapses and another holder takes the session; the others are fresh.
    const [stale] = await leaseEach(transport, ['stale'], 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const live = await leaseEach(transport, ['x', 'y', 'z'], 1);
    const taker = (await transport.acceptSession('Erp', { sessionId: 'stale', waitMs: 0 }))!;
    // The first settlement finds the slot free and goes alone; the other three (the stale one last) form a group.
    const results = await Promise.allSettled(
      [...live, stale!].map(({ session, messages }) => session.complete(messages[0]!)),
    );
    const refused = results.at(-1);
    const settled = results.slice(0, -1);
    expect(refused!.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason;
    expect(isTransportError(error) && error.code).toBe(TransportErrorCode.SessionLockLost);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(transport.settleGroupStats.refusedGroups).toBeGreaterThanOrEqual(1);
    // The new holder gets the message the former holder could not settle.
    const [again] = await taker.receive({ max: 1, waitMs: 0 });
    expect(again!.sequence).toBe(1);
    await taker.complete(again!);
    await taker.release();
    for (const { session } of live) await session.release();
    expect((await transport.counts('Erp')).active).toBe(0);
  });

  it('receives of several leases in the same turn each get their own line, in order', async () => {
    const transport = await open();
    await transport.applyTopology(topology);
    const keys = ['k1', 'k2', 'k3', 'k4'];
    for (let i = 0; i < 3; i++)
      await transport.publish([{ source: 'Crm', messages: keys.map((key) => event(key, { key, i })) }]);
    const sessions = await Promise.all(
      keys.map(async (key) => (await transport.acceptSession('Erp', { sessionId: key, waitMs: 0 }))!),
    );
    const first = await Promise.all(sessions.map((session) => session.receive({ max: 2, waitMs: 0 })));
    const second = await Promise.all(sessions.map((session) => session.receive({ max: 5, waitMs: 0 })));
    // PostgreSQL takes heads of several leases in one statement; SQLite takes each on its own.
    if (transport.name === 'sql-postgres')
      expect(transport.settleGroupStats.receiveGroups).toBeGreaterThanOrEqual(1);
    keys.forEach((key, k) => {
      const bodies = [...first[k]!, ...second[k]!].map((message) => JSON.parse(message.body));
      expect(bodies).toEqual([0, 1, 2].map((i) => ({ key, i })));
    });
    await Promise.all(
      sessions.map((session, k) =>
        session.settleMany!([...first[k]!, ...second[k]!].map((message) => ({ message }))),
      ),
    );
    for (const session of sessions) await session.release();
    expect((await transport.counts('Erp')).active).toBe(0);
  });

  it('with grouping off, every lease settles on its own', async () => {
    const transport = await open({ settleGroupConcurrency: 0 });
    await transport.applyTopology(topology);
    const held = await leaseEach(transport, ['p', 'q', 'r'], 1);
    await Promise.all(held.map(({ session, messages }) => session.complete(messages[0]!)));
    expect(transport.settleGroupStats.groups).toBe(0);
    for (const { session } of held) await session.release();
    expect((await transport.counts('Erp')).active).toBe(0);
  });
}
