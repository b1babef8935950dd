import { isServiceBusError } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../support.js';

describe('receiver kinds as Service Bus allows them', () => {
  const ctx = useEmulator();

  it('refuses a non-session receiver on a session subscription, and a session receiver on a plain one', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 'sessions', { requiresSession: true });
    ctx.emulator.namespace.createSubscription('t', 'plain');
    await ctx.client.createSender('t').sendMessages({ body: 'x', sessionId: 'a' });
    const plainReceiver = ctx.client.createReceiver('t', 'sessions');
    const error = await plainReceiver.receiveMessages(1, { maxWaitTimeInMs: 2_000 }).catch((e: unknown) => e);
    expect(isServiceBusError(error) || error instanceof Error).toBe(true);
    expect((error as Error).message).toMatch(/requires sessions.*non-sessionful/i);
    // The SDK words every failed session attach as "Failed to create a receiver for the requested session".
    await expect(ctx.client.acceptSession('t', 'plain', 'a')).rejects.toThrow(/Failed to create a receiver/);
    // The session message is still there for a session receiver.
    const session = await ctx.client.acceptSession('t', 'sessions', 'a');
    expect((await session.receiveMessages(1, { maxWaitTimeInMs: 2_000 })).map((m) => m.body)).toEqual(['x']);
  });

  it('receiveDeferredMessages on a subscription without sessions', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    await ctx.client.createSender('t').sendMessages([{ body: 'one' }, { body: 'two' }]);
    const receiver = ctx.client.createReceiver('t', 's');
    const messages = await receiver.receiveMessages(2, { maxWaitTimeInMs: 2_000 });
    expect(messages).toHaveLength(2);
    for (const m of messages) await receiver.deferMessage(m);
    const sequences = messages.map((m) => m.sequenceNumber!);
    const deferred = await receiver.receiveDeferredMessages(sequences);
    expect(deferred.map((m) => m.body)).toEqual(['one', 'two']);
    for (const m of deferred) await receiver.completeMessage(m);
    expect(await receiver.peekMessages(5, { fromSequenceNumber: sequences[0] })).toEqual([]);
  });
});
