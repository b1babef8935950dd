import { DefaultRetryPolicyProvider, MessageType, RetryPolicy } from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { createTestBus } from '../src/index.js';
import { OrderPlaced, platform } from './fixtures.js';
import { seededRandom as prng } from './support/seeded-random.js';

const SESSIONS = 12;
const EVENTS_PER_SESSION = 15;
const WAVES = 5;

async function run(seed: number) {
  const random = prng(seed);
  const bus = createTestBus({ platform });
  const attempts = new Map<string, number>();
  const succeeded: { customerId: string; orderId: string }[] = [];
  bus.endpoint('Billing', {
    subscriber: createSubscriber().on(OrderPlaced, (event, ctx) => {
      const tries = (attempts.get(event.orderId) ?? 0) + 1;
      attempts.set(event.orderId, tries);
      const failureChance = ctx.retryCount > 0 ? 0.5 : 0.3;
      if (random() < failureChance) throw new Error(`random failure of ${event.orderId} (try ${tries})`);
      if (ctx.retryCount > 0) retrySuccesses += 1;
      succeeded.push({ customerId: event.customerId, orderId: event.orderId });
    }),
    retryPolicies: new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 2, baseDelayMs: 1_000, strategy: 'exponential' }),
    ),
  });
  const sales = bus.publisher('Sales');
  const published = new Map<string, string[]>();
  const skippedOrders = new Set<string>();
  let counter = 0;
  let resubmitCount = 0;
  let retrySuccesses = 0;

  const operatorRound = async (share: number) => {
    const failedNow = [...bus.outcomes()].filter(([, type]) => type === MessageType.ErrorResponse);
    for (const [eventId] of failedNow) {
      if (random() >= share) continue;
      const error = bus.responses({ type: MessageType.ErrorResponse, eventId }).at(-1)!;
      if (random() < 0.6) {
        resubmitCount += 1;
        await bus.operator.resubmit(error);
      } else {
        skippedOrders.add(JSON.parse(error.content.eventContent!.eventJson).orderId);
        await bus.operator.skip(error);
      }
    }
  };

  for (let wave = 0; wave < WAVES; wave++) {
    const perWave = EVENTS_PER_SESSION / WAVES;
    const batch: { customerId: string; n: number }[] = [];
    for (let s = 0; s < SESSIONS; s++)
      for (let i = 0; i < perWave; i++) batch.push({ customerId: `c-${s}`, n: 0 });
    // Random interleaving across sessions; order within a session follows publish order.
    batch.sort(() => random() - 0.5);
    for (const item of batch) {
      counter += 1;
      const orderId = `o-${counter}`;
      await sales.publish(OrderPlaced, { orderId, customerId: item.customerId, amount: counter });
      published.set(item.customerId, [...(published.get(item.customerId) ?? []), orderId]);
    }
    await bus.deliverAll({ advanceTime: random() < 0.5 });
    await operatorRound(0.5);
    await bus.deliverAll({ advanceTime: random() < 0.5 });
  }
  for (let round = 0; round < 100; round++) {
    await bus.deliverAll({ advanceTime: true });
    if (![...bus.outcomes().values()].includes(MessageType.ErrorResponse)) break;
    await operatorRound(1);
  }
  return {
    bus,
    succeeded,
    published,
    skippedOrders,
    resubmits: () => resubmitCount,
    retriesSucceeded: () => retrySuccesses,
  };
}

describe('randomized: many sessions, random failures, retries and operator actions', () => {
  for (const seed of [1, 7, 42]) {
    it(`seed ${seed}: per-session order is the publish order, every event ends exactly once, nothing is lost`, async () => {
      const { bus, succeeded, published, skippedOrders, resubmits, retriesSucceeded } = await run(seed);
      const total = SESSIONS * EVENTS_PER_SESSION;
      // Per session, successful handling follows publish order (skipped events excepted).
      for (const [customerId, orders] of published) {
        const handled = succeeded.filter((s) => s.customerId === customerId).map((s) => s.orderId);
        expect(handled, `session ${customerId}`).toEqual(orders.filter((o) => !skippedOrders.has(o)));
      }
      // Every delivery reached the Resolver, and ended with exactly one final outcome.
      const requests = bus.requestsTo('Billing');
      const eventIds = new Set(requests.map((r) => r.eventId));
      expect(eventIds.size).toBe(total);
      const finals = bus
        .responses()
        .filter(
          (r) =>
            r.messageType === MessageType.ResolutionResponse || r.messageType === MessageType.SkipResponse,
        );
      const perEvent = new Map<string, number>();
      for (const r of finals) perEvent.set(r.eventId!, (perEvent.get(r.eventId!) ?? 0) + 1);
      expect([...eventIds].filter((id) => perEvent.get(id!) !== 1)).toEqual([]);
      expect(perEvent.size).toBe(total);
      expect(finals.filter((r) => r.messageType === MessageType.SkipResponse)).toHaveLength(
        skippedOrders.size,
      );
      // Nothing lost or left behind in the transport.
      expect(await bus.transport.counts('Billing')).toEqual({
        active: 0,
        scheduled: 0,
        deadLettered: 0,
        parked: 0,
      });
      expect(succeeded.length + skippedOrders.size).toBe(total);
      // The run really exercised parking, retries, resubmits and skips.
      const count = (type: MessageType) => bus.responses({ type }).length;
      expect(count(MessageType.DeferralResponse)).toBeGreaterThan(10);
      expect(count(MessageType.ErrorResponse)).toBeGreaterThan(10);
      expect(skippedOrders.size).toBeGreaterThan(0);
      expect(resubmits()).toBeGreaterThan(0);
      expect(retriesSucceeded()).toBeGreaterThan(0);
    });
  }
});
