import { expect, it } from 'vitest';
import { type Harness, message } from '../harness.js';

export function parkingCases(harness: () => Harness): void {
  it('reads parked messages in sequence order from a given sequence, per session, idempotent per sequence', async () => {
    const h = harness();
    await h.sendTo('Erp', 'blocked', 'trigger', 'next');
    await h.sendTo('Erp', 'elsewhere', 'z');
    const session = await h.accept('Erp', 'blocked');
    const trigger = await h.receiveOne(session);
    const parked = (sequence: number) => ({
      sequence,
      message: message({ sessionId: 'blocked', to: 'Erp', body: `p${sequence}` }),
    });
    await session.complete(trigger, { park: [parked(30), parked(10), parked(20)] });
    const next = await h.receiveOne(session);
    await session.complete(next, { park: [parked(20)] });
    const all = await session.readParked(0, 100);
    expect(all.map((p) => p.sequence)).toEqual([10, 20, 30]);
    expect(all.map((p) => p.message.body)).toEqual(['p10', 'p20', 'p30']);
    expect(all[0]!.parkedAt).toBeInstanceOf(Date);
    expect((await session.readParked(20, 100)).map((p) => p.sequence)).toEqual([20, 30]);
    expect((await session.readParked(0, 2)).map((p) => p.sequence)).toEqual([10, 20]);
    expect((await h.transport.counts('Erp')).parked).toBe(3);
    const other = await h.accept('Erp', 'elsewhere');
    expect(await other.readParked(0, 100)).toEqual([]);
  });

  it('removes parked messages by sequence and keeps the rest in place across leases', async () => {
    const h = harness();
    await h.sendTo('Erp', 'replay', 'a', 'b', 'c');
    const first = await h.accept('Erp', 'replay');
    const a = await h.receiveOne(first);
    await first.complete(a, {
      park: [1, 2, 3].map((sequence) => ({
        sequence,
        message: message({ sessionId: 'replay', body: `p${sequence}` }),
      })),
    });
    await first.release();
    const second = await h.accept('Erp', 'replay');
    expect((await second.readParked(0, 10)).map((p) => p.sequence)).toEqual([1, 2, 3]);
    const b = await h.receiveOne(second);
    await second.complete(b, { unpark: [1, 3] });
    expect((await second.readParked(0, 10)).map((p) => p.message.body)).toEqual(['p2']);
    expect((await h.transport.counts('Erp')).parked).toBe(1);
  });
}
