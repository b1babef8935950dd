import { isServiceBusError, ServiceBusClient } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support.js';

describe('emulator sessions', () => {
  const ctx = useEmulator();

  function sessionTopic(lockDurationMs = 60_000) {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's', { requiresSession: true, lockDurationMs });
    return ctx.client.createSender('t');
  }

  it('accepts a session by id and delivers only its messages, FIFO', async () => {
    const sender = sessionTopic();
    await sender.sendMessages([
      { body: 1, sessionId: 'a' },
      { body: 'x', sessionId: 'b' },
      { body: 2, sessionId: 'a' },
    ]);
    const receiver = await ctx.client.acceptSession('t', 's', 'a');
    expect(receiver.sessionId).toBe('a');
    expect(receiver.sessionLockedUntilUtc!.getTime()).toBeGreaterThan(Date.now());
    const got = await receiver.receiveMessages(5, { maxWaitTimeInMs: 300 });
    expect(got.map((m) => m.body)).toEqual([1, 2]);
  });

  it('accepts the next session with messages, or fails with ServiceTimeout when none comes', async () => {
    const sender = sessionTopic();
    const impatient = new ServiceBusClient(ctx.emulator.connectionString, {
      retryOptions: { maxRetries: 0, timeoutInMs: 500 },
    });
    const none = await impatient.acceptNextSession('t', 's').catch((e: unknown) => e);
    await impatient.close();
    expect(isServiceBusError(none) && none.code).toBe('ServiceTimeout');
    const waiting = ctx.client.acceptNextSession('t', 's');
    await sender.sendMessages({ body: 'late', sessionId: 'order-7' });
    const receiver = await waiting;
    expect(receiver.sessionId).toBe('order-7');
  });

  it('accepts a named session before its first message exists, and receives it when it arrives', async () => {
    const sender = sessionTopic();
    const receiver = await ctx.client.acceptSession('t', 's', 'reply-1');
    const pending = receiver.receiveMessages(1, { maxWaitTimeInMs: 2_000 });
    await sender.sendMessages({ body: 'answer', sessionId: 'reply-1' });
    expect((await pending).map((m) => m.body)).toEqual(['answer']);
  });

  it('refuses a second lock on a held session with SessionCannotBeLocked', async () => {
    const sender = sessionTopic();
    await sender.sendMessages({ body: 1, sessionId: 'held' });
    await ctx.client.acceptSession('t', 's', 'held');
    const second = await ctx.client.acceptSession('t', 's', 'held').catch((e: unknown) => e);
    expect(isServiceBusError(second) && second.code).toBe('SessionCannotBeLocked');
  });

  it('gets, sets and clears session state', async () => {
    const sender = sessionTopic();
    await sender.sendMessages({ body: 1, sessionId: 'st' });
    const receiver = await ctx.client.acceptSession('t', 's', 'st');
    expect(await receiver.getSessionState()).toBeFalsy();
    await receiver.setSessionState({ mode: 'blocked' });
    expect(await receiver.getSessionState()).toEqual({ mode: 'blocked' });
    await receiver.close();
    const again = await ctx.client.acceptSession('t', 's', 'st');
    expect(await again.getSessionState()).toEqual({ mode: 'blocked' });
    await again.setSessionState(null);
    expect(await again.getSessionState()).toBeFalsy();
  });

  it('renews the session lock (locked-until as .NET ticks) and loses it on expiry with SessionLockLost', async () => {
    const sender = sessionTopic(500);
    await sender.sendMessages({ body: 1, sessionId: 'lapse' });
    const receiver = await ctx.client.acceptSession('t', 's', 'lapse', { maxAutoLockRenewalDurationInMs: 0 });
    const before = receiver.sessionLockedUntilUtc!.getTime();
    expect(Math.abs(before - (Date.now() + 500))).toBeLessThan(400);
    const [message] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    await new Promise((r) => setTimeout(r, 150));
    await receiver.renewSessionLock();
    expect(receiver.sessionLockedUntilUtc!.getTime()).toBeGreaterThan(before);
    await new Promise((r) => setTimeout(r, 800));
    const failure = await receiver.completeMessage(message!).catch((e: unknown) => e);
    expect(isServiceBusError(failure) && failure.code).toBe('SessionLockLost');
    const next = await ctx.client.acceptSession('t', 's', 'lapse');
    const [again] = await next.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(again).toMatchObject({ body: 1, deliveryCount: 1 });
  });

  it('returns unsettled messages without counting a delivery when the receiver closes', async () => {
    const sender = sessionTopic();
    await sender.sendMessages({ body: 1, sessionId: 'r' });
    const first = await ctx.client.acceptSession('t', 's', 'r');
    await first.receiveMessages(1, { maxWaitTimeInMs: 500 });
    await first.close();
    const second = await ctx.client.acceptSession('t', 's', 'r');
    const [again] = await second.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(again!.deliveryCount).toBe(0);
  });

  it('never delivers beyond the credit: an abandoned session message comes back before the next one', async () => {
    const sender = sessionTopic();
    await sender.sendMessages([
      { body: 'a', sessionId: 'x' },
      { body: 'b', sessionId: 'x' },
    ]);
    const receiver = await ctx.client.acceptSession('t', 's', 'x');
    const [a] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    await receiver.abandonMessage(a!);
    const [again] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(again).toMatchObject({ body: 'a', deliveryCount: 1 });
  });

  it('hands out the next session in the order sessions became available (a released one queues behind)', async () => {
    const sender = sessionTopic();
    await sender.sendMessages([
      { body: 1, sessionId: 'busy' },
      { body: 2, sessionId: 'busy' },
    ]);
    await sender.sendMessages({ body: 'x', sessionId: 'patient' });
    const busy = await ctx.client.acceptNextSession('t', 's');
    expect(busy.sessionId).toBe('busy');
    const [first] = await busy.receiveMessages(1, { maxWaitTimeInMs: 500 });
    await busy.completeMessage(first!);
    await busy.close();
    await sender.sendMessages({ body: 'y', sessionId: 'late' });
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await ctx.client.acceptNextSession('t', 's')).sessionId);
    expect(order).toEqual(['patient', 'busy', 'late']);
  });

  it('gives a session that is given up to a receiver already waiting for the next session, before a later accept by id', async () => {
    // Azure hands a released session to waiting next-session receivers; the transport's next-session asks rely on it
    // (one ask per input at a time, see NextSessionTurns).
    const sender = sessionTopic();
    await sender.sendMessages({ body: 1, sessionId: 'a' });
    const found = await ctx.client.acceptNextSession('t', 's');
    const waiting = ctx.client.acceptNextSession('t', 's');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await found.close();
    const byId = await ctx.client.acceptSession('t', 's', 'a').catch((e: unknown) => e);
    expect(isServiceBusError(byId) && byId.code).toBe('SessionCannotBeLocked');
    expect((await waiting).sessionId).toBe('a');
  });

  it("keeps a crashed client's session lock until it expires, and the expiry counts a delivery", async () => {
    const sender = sessionTopic(400);
    await sender.sendMessages({ body: 1, sessionId: 'crash' });
    const doomed = new ServiceBusClient(ctx.emulator.connectionString);
    const receiver = await doomed.acceptSession('t', 's', 'crash', { maxAutoLockRenewalDurationInMs: 0 });
    await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    // What a SIGKILL leaves behind: the socket goes away without an AMQP close.
    const internals = doomed as unknown as {
      _connectionContext: { connection: { _connection: { socket: { destroy(): void } } } };
    };
    internals._connectionContext.connection._connection.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const early = await ctx.client.acceptSession('t', 's', 'crash').catch((e: unknown) => e);
    expect(isServiceBusError(early) && early.code).toBe('SessionCannotBeLocked');
    await new Promise((r) => setTimeout(r, 400));
    const next = await ctx.client.acceptSession('t', 's', 'crash');
    const [again] = await next.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(again).toMatchObject({ body: 1, deliveryCount: 1 });
    void doomed.close().catch(() => undefined);
  });

  it('defers and receives deferred messages by sequence number; peek shows them', async () => {
    const sender = sessionTopic();
    await sender.sendMessages([
      { body: 'p', sessionId: 'd' },
      { body: 'q', sessionId: 'd' },
    ]);
    const receiver = await ctx.client.acceptSession('t', 's', 'd');
    const [p] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    await receiver.deferMessage(p!);
    const [q] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(q!.body).toBe('q');
    const peeked = await receiver.peekMessages(5, { fromSequenceNumber: p!.sequenceNumber! });
    expect(peeked.map((m) => [m.body, m.state])).toEqual([
      ['p', 'deferred'],
      ['q', 'active'],
    ]);
    const [deferred] = await receiver.receiveDeferredMessages(p!.sequenceNumber!);
    expect(deferred!.body).toBe('p');
    await receiver.completeMessage(deferred!);
    expect(
      (await receiver.peekMessages(5, { fromSequenceNumber: p!.sequenceNumber! })).map((m) => m.body),
    ).toEqual(['q']);
  });
});
