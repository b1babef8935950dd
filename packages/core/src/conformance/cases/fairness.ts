import { expect, it } from 'vitest';
import type { Harness } from '../harness.js';

/** Real time, also for fixtures with a manual clock: how long a wake-up may take to arrive. */
const WAKE_BOUND_MS = 1_000;

function realDelay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

/** Accepts `count` sessions one after another (holding them all) and returns their ids in accept order. */
async function acceptOrder(h: Harness, input: string, count: number): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < count; i++) order.push((await h.accept(input)).sessionId);
  return order;
}

export function fairnessCases(harness: () => Harness): void {
  it('hands out the next session in the order the sessions got work', async () => {
    const h = harness();
    for (const session of ['first', 'second', 'third']) {
      await h.sendTo('Erp', session, '1');
      await h.elapse(5);
    }
    expect(await acceptOrder(h, 'Erp', 3)).toEqual(['first', 'second', 'third']);
  });

  it('puts a session released with work still waiting behind the sessions that waited meanwhile', async () => {
    const h = harness();
    await h.sendTo('Erp', 'busy', '1', '2');
    await h.elapse(5);
    await h.sendTo('Erp', 'patient', 'x');
    await h.elapse(5);
    const busy = await h.accept('Erp');
    expect(busy.sessionId).toBe('busy');
    await busy.complete(await h.receiveOne(busy));
    await busy.release();
    await h.elapse(5);
    await h.sendTo('Erp', 'late', 'y');
    // 'patient' waited before busy's turn ended; 'late' got its work after: busy comes between them.
    expect(await acceptOrder(h, 'Erp', 3)).toEqual(['patient', 'busy', 'late']);
  });

  it('serves a released session with work before a session that gets its first message afterwards', async () => {
    const h = harness();
    await h.sendTo('Erp', 'old', '1', '2');
    const old = await h.accept('Erp', 'old');
    await old.complete(await h.receiveOne(old));
    await old.release();
    await h.elapse(5);
    await h.sendTo('Erp', 'new', 'x');
    expect(await acceptOrder(h, 'Erp', 2)).toEqual(['old', 'new']);
  });

  it('asks an idle session holder to give its session up when another session gets work and no accept waits', async () => {
    const h = harness();
    await h.sendTo('Erp', 'holder', '1');
    const holder = await h.accept('Erp', 'holder');
    await holder.complete(await h.receiveOne(holder));
    const waiting = holder.receive({ max: 1, waitMs: 60_000 });
    await realDelay(50, undefined);
    await h.sendTo('Erp', 'other', 'x');
    const outcome = await Promise.race([waiting, realDelay(WAKE_BOUND_MS, 'still waiting' as const)]);
    expect(outcome).toEqual([]);
    await holder.release();
    expect((await h.accept('Erp')).sessionId).toBe('other');
  });

  it('gives an emptied session up at once when another session waits, however long ago its work came', async () => {
    const h = harness();
    await h.sendTo('Erp', 'holder', '1');
    await h.sendTo('Erp', 'other', 'x');
    const holder = await h.accept('Erp', 'holder');
    await holder.complete(await h.receiveOne(holder));
    // Longer than a wake-up for unclaimed work is remembered: only the transport's own state says 'other' waits
    // (under load the wake-ups for a burst of publishes are spent on busy sessions and then expire).
    // The holder keeps its lease meanwhile (fixtures use short locks).
    for (let waited = 0; waited < 1_500; waited += 250) {
      await h.elapse(250);
      await holder.renewLock();
    }
    const outcome = await Promise.race([
      holder.receive({ max: 1, waitMs: 60_000 }),
      realDelay(WAKE_BOUND_MS, 'still waiting' as const),
    ]);
    expect(outcome).toEqual([]);
    await holder.release();
    expect((await h.accept('Erp')).sessionId).toBe('other');
  });

  it('wakes the receive of the session the work is for, not an idle holder of another session', async () => {
    const h = harness();
    await h.sendTo('Erp', 'a', '1');
    await h.sendTo('Erp', 'b', '1');
    const a = await h.accept('Erp', 'a');
    const b = await h.accept('Erp', 'b');
    await a.complete(await h.receiveOne(a));
    await b.complete(await h.receiveOne(b));
    const aWaiting = a.receive({ max: 1, waitMs: 60_000 });
    const bWaiting = b.receive({ max: 1, waitMs: 60_000 });
    await realDelay(50, undefined);
    await h.sendTo('Erp', 'b', '2');
    const bOutcome = await Promise.race([bWaiting, realDelay(WAKE_BOUND_MS, 'still waiting' as const)]);
    expect(bOutcome).not.toBe('still waiting');
    expect((bOutcome as { body: string }[]).map((m) => m.body)).toEqual(['2']);
    // a's receive is still waiting (it was not woken for b's work): it gets its own next message.
    await h.sendTo('Erp', 'a', '2');
    const aOutcome = await Promise.race([aWaiting, realDelay(WAKE_BOUND_MS, 'still waiting' as const)]);
    expect((aOutcome as { body: string }[]).map((m) => m.body)).toEqual(['2']);
    await a.release();
    await b.release();
  });
}
