import { afterEach, describe, expect, it } from 'vitest';
import {
  CircuitState,
  EndpointCircuitBreaker,
  gateTransport,
  type ReceivedMessage,
  SessionProcessor,
  silentLogger,
  type Transport,
  withCircuitBreaker,
} from '../../src/index.js';
import { INPUT, memorySetup, settleTicks, until } from '../processing/processor-fixtures.js';

class UnavailableError extends Error {}

let processor: SessionProcessor | undefined;
afterEach(async () => {
  await processor?.stop();
  processor = undefined;
});

describe('a breaker-gated receive loop', () => {
  it('stops receiving while the breaker is open and resumes with a half-open probe', async () => {
    const { clock, transport, send } = await memorySetup();
    const breaker = new EndpointCircuitBreaker(INPUT, {
      minimumThroughput: 2,
      failurePercentageThreshold: 100,
      breakDurationMs: 60_000,
      clock,
      logger: silentLogger,
    });
    const handled: string[] = [];
    let failing = true;
    const handler = withCircuitBreaker(
      {
        async handleMessage(session, message: ReceivedMessage) {
          handled.push(message.body);
          if (failing) {
            await session.abandon(message);
            throw new UnavailableError(`external system down (${message.body})`);
          }
          await session.complete(message);
        },
      },
      breaker,
    );
    processor = new SessionProcessor({
      transport: gateTransport(transport, breaker),
      input: INPUT,
      handler,
      maxConcurrentSessions: 1,
      acceptWaitMs: 1_000,
      sessionIdleTimeoutMs: 1_000,
      errorBackoffMs: 0,
      // The transport's clock: the lease fence measures the session's lease on it.
      clock,
      logger: silentLogger,
    });
    await send('s1', 'a', 'b');
    await processor.start();
    await until(() => breaker.state === CircuitState.Open, 'breaker open after two failures');
    const attemptsWhenOpened = handled.length;

    // Open: the message stays on the transport untouched, however long we let the loop run.
    for (let i = 0; i < 20; i++) await settleTicks();
    expect(handled.length).toBe(attemptsWhenOpened);
    const counts = await transport.counts(INPUT);
    expect(counts.active).toBe(2);
    const [peeked] = await transport.peek(INPUT, { max: 1 });
    const deliveriesWhileOpen = peeked?.deliveryCount;

    clock.advance(59_000);
    for (let i = 0; i < 20; i++) await settleTicks();
    expect(handled.length).toBe(attemptsWhenOpened);
    expect((await transport.peek(INPUT, { max: 1 }))[0]?.deliveryCount).toBe(deliveriesWhileOpen);

    // Half-open: the probe succeeds, the breaker closes and the rest drains.
    failing = false;
    clock.advance(1_000);
    await until(() => handled.length >= attemptsWhenOpened + 2, 'messages handled after the break');
    await until(() => breaker.state === CircuitState.Closed, 'breaker closed after the probe');
    await until(() => processor!.stats.messagesHandled >= 2, 'processor finished the probe');
    expect((await transport.counts(INPUT)).active).toBe(0);
  });

  it('gates acceptSessions like acceptSession: an open breaker takes no sessions, a closed one passes through', async () => {
    const { clock } = await memorySetup();
    const breaker = new EndpointCircuitBreaker(INPUT, {
      minimumThroughput: 2,
      failurePercentageThreshold: 100,
      breakDurationMs: 60_000,
      clock,
      logger: silentLogger,
    });
    const asked: number[] = [];
    const inner = {
      acceptSessions: async ({ max }: { max: number }) => {
        asked.push(max);
        return [];
      },
    } as unknown as Transport;
    const gated = gateTransport(inner, breaker);
    breaker.recordFailure(new UnavailableError('down'));
    breaker.recordFailure(new UnavailableError('down'));
    expect(breaker.state).toBe(CircuitState.Open);
    const stop = new AbortController();
    const waiting = gated.acceptSessions!({ input: INPUT, max: 3, waitMs: 0, signal: stop.signal });
    for (let i = 0; i < 10; i++) await settleTicks();
    stop.abort();
    expect(await waiting).toEqual([]);
    expect(asked).toEqual([]);
    breaker.reset();
    expect(await gated.acceptSessions!({ input: INPUT, max: 3, waitMs: 0 })).toEqual([]);
    expect(asked).toEqual([3]);
    // A transport without acceptSessions stays without it behind the gate.
    expect(gateTransport({} as Transport, breaker).acceptSessions).toBeUndefined();
  });
});
