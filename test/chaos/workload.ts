/** A small deterministic PRNG (mulberry32), so a failing run can be repeated with its seed. */
export { seededRandom as random } from '../../packages/testing/test/support/seeded-random.js';

/** One planned publish: the n-th event of an order's session and how its handler will behave. */
export interface PlannedEvent {
  readonly orderId: string;
  readonly n: number;
  readonly mode: 'ok' | 'transient' | 'block' | 'permanent';
}

/** Mostly healthy traffic with every kind of handler failure mixed in, interleaved across sessions. */
export function planWorkload(
  rand: () => number,
  sessions: number,
  perSession: number,
  tag: string,
): PlannedEvent[] {
  const next = new Map<string, number>();
  const plan: PlannedEvent[] = [];
  for (let i = 0; i < sessions * perSession; i++) {
    const orderId = `${tag}-${Math.floor(rand() * sessions)}`;
    const n = (next.get(orderId) ?? 0) + 1;
    next.set(orderId, n);
    const roll = rand();
    const mode = roll < 0.08 ? 'transient' : roll < 0.16 ? 'block' : roll < 0.2 ? 'permanent' : 'ok';
    plan.push({ orderId, n, mode });
  }
  return plan;
}
