import { isServiceBusError } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support.js';

describe('emulator peek-lock settlement', () => {
  const ctx = useEmulator();

  function topicWith(subscription: string, properties = {}) {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', subscription, properties);
    return ctx.client.createSender('t');
  }

  it('abandon redelivers with deliveryCount + 1 (a modified disposition is not treated as released)', async () => {
    const sender = topicWith('s');
    await sender.sendMessages({ body: 'a', messageId: 'm-a' });
    const receiver = ctx.client.createReceiver('t', 's');
    const [first] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    await receiver.abandonMessage(first!);
    const [again] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    expect(again).toMatchObject({ body: 'a', messageId: 'm-a', deliveryCount: 1 });
    expect(again!.sequenceNumber!.toNumber()).toBe(first!.sequenceNumber!.toNumber());
  });

  it('dead-letters with reason and description, readable from the dead-letter sub-queue', async () => {
    const sender = topicWith('s');
    await sender.sendMessages({ body: 'poison' });
    const receiver = ctx.client.createReceiver('t', 's');
    const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    await receiver.deadLetterMessage(message!, {
      deadLetterReason: 'HandlerFailed',
      deadLetterErrorDescription: 'boom',
    });
    const dlq = ctx.client.createReceiver('t', 's', { subQueueType: 'deadLetter' });
    const [dead] = await dlq.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    expect(dead).toMatchObject({
      body: 'poison',
      deadLetterReason: 'HandlerFailed',
      deadLetterErrorDescription: 'boom',
    });
    expect(dead!.deadLetterSource).toBe('t/Subscriptions/s');
  });

  it('moves a message to the dead-letter sub-queue at the max delivery count', async () => {
    const sender = topicWith('s', { maxDeliveryCount: 2 });
    await sender.sendMessages({ body: 'x' });
    const receiver = ctx.client.createReceiver('t', 's');
    for (let i = 0; i < 2; i++) {
      const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
      await receiver.abandonMessage(message!);
    }
    expect(await receiver.receiveMessages(1, { maxWaitTimeInMs: 200 })).toEqual([]);
    const [dead] = await ctx.client.createReceiver('t', 's', { subQueueType: 'deadLetter' }).peekMessages(1);
    expect(dead).toMatchObject({ body: 'x', deadLetterReason: 'MaxDeliveryCountExceeded', deliveryCount: 2 });
  });

  it('renews a message lock (GUID lock tokens in .NET byte order round-trip) and fails settlement after expiry with MessageLockLost', async () => {
    const sender = topicWith('s', { lockDurationMs: 400 });
    await sender.sendMessages({ body: 'x' });
    const receiver = ctx.client.createReceiver('t', 's', { maxAutoLockRenewalDurationInMs: 0 });
    const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    const before = message!.lockedUntilUtc!.getTime();
    await new Promise((r) => setTimeout(r, 100));
    const renewed = await receiver.renewMessageLock(message!);
    expect(renewed.getTime()).toBeGreaterThan(before);
    await new Promise((r) => setTimeout(r, 600));
    // A refused settlement carries an error condition; without it the SDK would report success.
    const failure = await receiver.completeMessage(message!).catch((e: unknown) => e);
    expect(isServiceBusError(failure) && failure.code).toBe('MessageLockLost');
    const [again] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    expect(again!.deliveryCount).toBe(1);
  });

  it('settles every delivery server-side: 2,100 messages flow through one receiver without stalling', async () => {
    const sender = topicWith('s');
    for (let i = 0; i < 21; i++) {
      await sender.sendMessages(Array.from({ length: 100 }, (_, j) => ({ body: i * 100 + j })));
    }
    const receiver = ctx.client.createReceiver('t', 's');
    let count = 0;
    while (count < 2_100) {
      const batch = await receiver.receiveMessages(300, { maxWaitTimeInMs: 2_000 });
      if (batch.length === 0) break;
      await Promise.all(batch.map((m) => receiver.completeMessage(m)));
      count += batch.length;
    }
    expect(count).toBe(2_100);
  });

  it('answers drain: a receive with more credit than messages returns at its max wait', async () => {
    const sender = topicWith('s');
    await sender.sendMessages({ body: 'only' });
    const receiver = ctx.client.createReceiver('t', 's');
    const started = Date.now();
    const batch = await receiver.receiveMessages(10, { maxWaitTimeInMs: 300 });
    expect(batch).toHaveLength(1);
    expect(await receiver.receiveMessages(10, { maxWaitTimeInMs: 200 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('receive-and-delete removes on delivery', async () => {
    const sender = topicWith('s');
    await sender.sendMessages([{ body: 1 }, { body: 2 }]);
    const receiver = ctx.client.createReceiver('t', 's', { receiveMode: 'receiveAndDelete' });
    const got = await receiver.receiveMessages(2, { maxWaitTimeInMs: 1_000 });
    expect(got.map((m) => m.body)).toEqual([1, 2]);
    expect(await ctx.client.createReceiver('t', 's').peekMessages(5)).toEqual([]);
  });
});
