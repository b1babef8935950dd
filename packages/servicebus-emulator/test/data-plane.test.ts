import { describe, expect, it } from 'vitest';
import { useEmulator } from './support.js';

describe('emulator data plane with the unmodified @azure/service-bus client', () => {
  const ctx = useEmulator();

  it('sends one, many and a batch; receives peek-lock with sequence numbers; completes', async () => {
    ctx.emulator.namespace.createTopic('orders');
    ctx.emulator.namespace.createSubscription('orders', 'all');
    const sender = ctx.client.createSender('orders');
    await sender.sendMessages({ body: { n: 1 }, applicationProperties: { kind: 'single', count: 7 } });
    await sender.sendMessages([{ body: { n: 2 } }, { body: { n: 3 } }]);
    const batch = await sender.createMessageBatch();
    expect(batch.tryAddMessage({ body: { n: 4 } })).toBe(true);
    expect(batch.tryAddMessage({ body: { n: 5 } })).toBe(true);
    await sender.sendMessages(batch);
    const receiver = ctx.client.createReceiver('orders', 'all');
    const received = [];
    while (received.length < 5)
      received.push(...(await receiver.receiveMessages(5, { maxWaitTimeInMs: 1_000 })));
    expect(received.map((m) => m.body.n)).toEqual([1, 2, 3, 4, 5]);
    expect(received[0]!.applicationProperties).toEqual({ kind: 'single', count: 7 });
    const sequences = received.map((m) => m.sequenceNumber!.toNumber());
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(received[0]!.deliveryCount).toBe(0);
    expect(received[0]!.lockedUntilUtc!.getTime()).toBeGreaterThan(Date.now());
    expect(received[0]!.lockToken).toMatch(/^[0-9a-f-]{36}$/);
    for (const message of received) await receiver.completeMessage(message);
    expect(await receiver.receiveMessages(1, { maxWaitTimeInMs: 200 })).toEqual([]);
  });
});
