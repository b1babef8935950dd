import { MessageType } from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { createTestBus } from '../src/index.js';
import { OrderPlaced, order, platform } from './fixtures.js';

describe('replay volume over the memory transport', () => {
  it('replays a long parked line in order, in budgets handed on by ContinuationRequests', async () => {
    const parkedCount = 2_000;
    const bus = createTestBus({ platform, maxBatchBytes: 16 * 1024 * 1024 });
    const handled: string[] = [];
    let fail = true;
    bus.endpoint('Billing', {
      subscriber: createSubscriber().on(OrderPlaced, (e) => {
        if (fail && e.orderId === 'o-0') throw new Error('blocker');
        handled.push(e.orderId);
      }),
      maxReplayPerSettlement: 300,
    });
    const sales = bus.publisher('Sales');
    await sales.publishMany(
      Array.from({ length: parkedCount + 1 }, (_, n) => ({ type: OrderPlaced, payload: order(n) })),
    );
    await bus.deliverAll();
    expect(bus.responses({ type: MessageType.DeferralResponse })).toHaveLength(parkedCount);
    fail = false;
    await bus.operator.skip(bus.responses({ type: MessageType.ErrorResponse })[0]!);
    await bus.deliverAll();
    expect(handled).toEqual(Array.from({ length: parkedCount }, (_, n) => `o-${n + 1}`));
    expect(await bus.transport.counts('Billing')).toMatchObject({ active: 0, parked: 0 });
  });
});
