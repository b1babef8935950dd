import { describe, expect, it } from 'vitest';
import {
  isTransportError,
  type ProcessorErrorContext,
  type ReceivedMessage,
  type SessionHandle,
  SessionProcessor,
  type SessionProcessorOptions,
  TransportErrorCode,
} from '../../src/index.js';
import {
  deferred,
  INPUT,
  memorySetup,
  processorsStoppedAfterEach,
  settleTicks,
  until,
} from './processor-fixtures.js';

const createProcessor = processorsStoppedAfterEach();

describe('SessionProcessor', () => {
  it('keeps FIFO per session while handling several sessions concurrently, never one session twice at once', async () => {
    const { clock, transport, send } = await memorySetup();
    for (let i = 0; i < 20; i++) {
      for (const session of ['a', 'b', 'c']) await send(session, String(i));
    }
    const seen = new Map<string, number[]>();
    const inFlight = new Map<string, number>();
    let concurrentSessions = 0;
    let maxConcurrentSessions = 0;
    let overlapInOneSession = false;
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 3,
      handler: {
        async handleMessage(session, message) {
          const busy = (inFlight.get(session.sessionId) ?? 0) + 1;
          inFlight.set(session.sessionId, busy);
          if (busy > 1) overlapInOneSession = true;
          concurrentSessions += 1;
          maxConcurrentSessions = Math.max(maxConcurrentSessions, concurrentSessions);
          await settleTicks();
          seen.set(session.sessionId, [...(seen.get(session.sessionId) ?? []), Number(message.body)]);
          await session.complete(message);
          concurrentSessions -= 1;
          inFlight.set(session.sessionId, busy - 1);
        },
      },
    });
    await processor.start();
    await until(() => processor.stats.messagesHandled === 60, '60 messages handled');
    const inOrder = Array.from({ length: 20 }, (_, i) => i);
    expect(Object.fromEntries(seen)).toEqual({ a: inOrder, b: inOrder, c: inOrder });
    expect(overlapInOneSession).toBe(false);
    expect(maxConcurrentSessions).toBeGreaterThan(1);
    expect((await transport.counts(INPUT)).active).toBe(0);
  });

  it('calls onSessionAccepted once per accepted session, before its first message', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'x', 'y');
    const calls: string[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      handler: {
        async onSessionAccepted(session) {
          calls.push(`accepted:${session.sessionId}`);
        },
        async handleMessage(session, message) {
          calls.push(message.body);
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await until(() => processor.stats.messagesHandled === 2, 'two messages');
    expect(calls).toEqual(['accepted:s1', 'x', 'y']);
  });

  it('releases a session after it has been idle for sessionIdleTimeoutMs', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'first');
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      sessionIdleTimeoutMs: 1_000,
      handler: { handleMessage: (session, message) => session.complete(message) },
    });
    await processor.start();
    await until(() => processor.stats.messagesHandled === 1, 'first message');
    await settleTicks();
    clock.advance(999);
    await settleTicks();
    expect(processor.stats.sessionsReleased).toBe(0);
    clock.advance(1);
    await until(() => processor.stats.sessionsReleased === 1, 'idle release');
    expect(processor.stats.activeSessions).toBe(0);
    await send('s1', 'second');
    await until(() => processor.stats.messagesHandled === 2, 'second message after re-accept');
    expect(processor.stats.sessionsAccepted).toBe(2);
  });

  it('drains on stop: stops taking messages, lets the in-flight one finish, releases the session', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'one', 'two');
    const gate = deferred();
    const started = deferred();
    const handled: string[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 2,
      handler: {
        async handleMessage(session, message) {
          started.resolve();
          await gate.promise;
          await session.complete(message);
          handled.push(message.body);
        },
      },
    });
    const states: string[] = [];
    processor.onStateChange((state) => states.push(state));
    await processor.start();
    await started.promise;
    let stopResolved = false;
    const stopping = processor.stop().then(() => {
      stopResolved = true;
    });
    await settleTicks();
    expect(processor.state).toBe('stopping');
    expect(stopResolved).toBe(false);
    gate.resolve();
    await stopping;
    expect(handled).toEqual(['one']);
    expect(states).toEqual(['starting', 'running', 'stopping', 'stopped']);
    expect(processor.running).toBe(false);
    const again = await transport.acceptSession(INPUT, { waitMs: 0 });
    const [next] = (await again?.receive({ max: 1, waitMs: 0 })) ?? [];
    expect(next).toMatchObject({ body: 'two', deliveryCount: 1 });
  });

  it('renews the lock while a long handler runs, so the message completes under the same lease', async () => {
    const { clock, transport, send } = await memorySetup({ lockDurationMs: 1_000 });
    await send('s1', 'slow');
    const gate = deferred();
    const started = deferred();
    let completedWith: number | undefined;
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      handler: {
        async handleMessage(session, message) {
          started.resolve();
          await gate.promise;
          await session.complete(message);
          completedWith = message.deliveryCount;
        },
      },
    });
    await processor.start();
    await started.promise;
    for (let i = 0; i < 10; i++) {
      clock.advance(300);
      await settleTicks();
    }
    gate.resolve();
    await until(() => completedWith !== undefined, 'slow message completed');
    expect(completedWith).toBe(1);
    expect(processor.stats.lockLosses).toBe(0);
  });

  it('restarts after a lost session lock: drops the session, accepts again and gets the message redelivered', async () => {
    const { clock, transport, send } = await memorySetup({ lockDurationMs: 1_000 });
    await send('s1', 'm');
    const deliveries: number[] = [];
    const firstStarted = deferred();
    const gate = deferred();
    const errors: ProcessorErrorContext[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      maxAutoLockRenewalDurationMs: 0,
      onError: (_error, context) => errors.push(context),
      handler: {
        async handleMessage(session: SessionHandle, message: ReceivedMessage) {
          deliveries.push(message.deliveryCount);
          if (message.deliveryCount === 1) {
            firstStarted.resolve();
            await gate.promise;
          }
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await firstStarted.promise;
    clock.advance(1_000);
    gate.resolve();
    await until(() => processor.stats.messagesHandled === 1, 'redelivered message handled');
    expect(deliveries).toEqual([1, 2]);
    expect(processor.stats.lockLosses).toBe(1);
    expect(errors).toContainEqual({ source: 'session', input: INPUT, sessionId: 's1' });
    expect(processor.running).toBe(true);
  });

  it('survives a handler that throws: logs it, reports it and goes on with the next message', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'ok-1', 'boom', 'ok-2');
    const handled: string[] = [];
    const reported: unknown[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      onError: (error, context) => reported.push([context.source, (error as Error).message]),
      handler: {
        async handleMessage(session, message) {
          if (message.body === 'boom') throw new Error('handler exploded');
          await session.complete(message);
          handled.push(message.body);
        },
      },
    });
    await processor.start();
    await until(() => handled.length === 2, 'both good messages');
    expect(handled).toEqual(['ok-1', 'ok-2']);
    expect(processor.stats.handlerErrors).toBe(1);
    expect(reported).toEqual([['handler', 'handler exploded']]);
    expect(processor.running).toBe(true);
  });

  it('gives a received batch of more than one message to handleMessages, and single messages to handleMessage', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'a', 'b', 'c');
    const calls: string[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      receiveBatchSize: 2,
      handler: {
        async handleMessage(session, message) {
          calls.push(`one:${message.body}`);
          await session.complete(message);
        },
        async handleMessages(session, messages) {
          calls.push(`many:${messages.map((m) => m.body).join(',')}`);
          for (const message of messages) await session.complete(message);
        },
      },
    });
    await processor.start();
    await until(() => processor.stats.messagesHandled === 3, 'three messages');
    expect(calls).toEqual(['many:a,b', 'one:c']);
  });

  it('counts a throwing handleMessages as one handler error and keeps going', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'a', 'b', 'c');
    const reported: unknown[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      receiveBatchSize: 2,
      onError: (error, context) => reported.push([context.source, (error as Error).message]),
      handler: {
        async handleMessage(session, message) {
          await session.complete(message);
        },
        async handleMessages() {
          throw new Error('batch exploded');
        },
      },
    });
    await processor.start();
    await until(() => processor.stats.messagesHandled === 1, 'the single message after the batch');
    expect(processor.stats.handlerErrors).toBe(1);
    expect(reported).toEqual([['handler', 'batch exploded']]);
  });

  it('ends its loops when the transport is closed instead of spinning', async () => {
    const { clock, transport } = await memorySetup();
    const errors: unknown[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 2,
      onError: (error) => errors.push(error),
      handler: { handleMessage: async () => undefined },
    });
    await processor.start();
    await transport.close();
    await until(() => errors.length === 2, 'both loops saw Closed');
    expect(errors.every((e) => isTransportError(e, TransportErrorCode.Closed))).toBe(true);
    await processor.stop();
    expect(processor.state).toBe('stopped');
  });

  it('refuses invalid options with an error naming the option', async () => {
    const { transport } = await memorySetup();
    const handler = { handleMessage: async () => undefined };
    expect(
      () => new SessionProcessor({ transport, input: INPUT, handler, maxConcurrentSessions: 0 }),
    ).toThrow(/maxConcurrentSessions/);
    expect(
      () => new SessionProcessor({ transport, input: INPUT, handler, sessionIdleTimeoutMs: -1 }),
    ).toThrow(/sessionIdleTimeoutMs/);
    expect(() => new SessionProcessor({ transport, input: INPUT, handler, prefetchCount: 1.5 })).toThrow(
      /prefetchCount/,
    );
    expect(() => new SessionProcessor({ transport, input: '', handler })).toThrow(/input/);
    expect(
      () => new SessionProcessor({ transport, input: INPUT, handler: {} as unknown as typeof handler }),
    ).toThrow(/handler/);
  });

  it('with prefetch, stop hands back the prefetched messages it did not handle, uncounted', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('s1', 'a', 'b', 'c');
    const gate = deferred();
    const started = deferred();
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      prefetchCount: 2,
      handler: {
        async handleMessage(session, message) {
          started.resolve();
          await gate.promise;
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await started.promise;
    const stopping = processor.stop();
    gate.resolve();
    await stopping;
    const session = await transport.acceptSession(INPUT, { waitMs: 0 });
    const rest = (await session?.receive({ max: 5, waitMs: 0 })) ?? [];
    expect(rest.map((m) => [m.body, m.deliveryCount])).toEqual([
      ['b', 1],
      ['c', 1],
    ]);
  });

  it('stops renewing after maxAutoLockRenewalDurationMs, so an overlong handler loses the lock', async () => {
    const { clock, transport, send } = await memorySetup({ lockDurationMs: 1_000 });
    await send('s1', 'endless');
    const gate = deferred();
    const started = deferred();
    let settleError: unknown;
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      maxAutoLockRenewalDurationMs: 2_000,
      handler: {
        async handleMessage(session, message) {
          if (message.deliveryCount > 1) return session.complete(message);
          started.resolve();
          await gate.promise;
          await session.complete(message).catch((error: unknown) => {
            settleError = error;
            throw error;
          });
        },
      },
    });
    await processor.start();
    await started.promise;
    for (let i = 0; i < 12; i++) {
      clock.advance(300);
      await settleTicks();
    }
    gate.resolve();
    await until(() => processor.stats.lockLosses === 1, 'lock loss after the renewal budget');
    expect(isTransportError(settleError, TransportErrorCode.SessionLockLost)).toBe(true);
    await until(() => processor.stats.messagesHandled === 1, 'redelivery handled after restart');
  });

  it('treats start as idempotent and is not restarted after a stop: a new processor takes over', async () => {
    const { clock, transport, send } = await memorySetup();
    const options: SessionProcessorOptions = {
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 1,
      handler: { handleMessage: (session, message) => session.complete(message) },
    };
    const processor = createProcessor(options);
    await processor.start();
    await processor.start();
    await processor.stop();
    expect(processor.state).toBe('stopped');
    await expect(processor.start()).rejects.toMatchObject({ code: 'Closed' });
    await send('s1', 'after stop');
    const next = createProcessor(options);
    await next.start();
    await until(() => next.stats.messagesHandled === 1, 'message handled by the new processor');
  });
});
