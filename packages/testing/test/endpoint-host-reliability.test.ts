import {
  CircuitState,
  decodeEnvelope,
  EndpointCircuitBreaker,
  ManualClock,
  MessageType,
  RESOLVER_INPUT,
  silentLogger,
} from '@nimbus/core';
import {
  createEndpointHost,
  createSubscriber,
  EndpointHostConfigurationError,
  type EndpointInbox,
} from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { OrderPlaced, order, platform } from './fixtures.js';
import { eventually, memorySalesBus, stopsAfterEach } from './support/host-fixtures.js';

const stops = stopsAfterEach();

const memoryBus = () => memorySalesBus(stops);

/** A structural inbox (what `createInbox` of @nimbus/reliability returns), over a set. */
function setInbox() {
  const records = new Set<string>();
  const cleanup = { started: 0, stopped: 0 };
  const inbox: EndpointInbox = {
    store: records,
    check: async (endpointId, messageId) =>
      records.has(`${endpointId}|${messageId}`) ? 'duplicate' : 'process',
    record: async (endpointId, messageId) => void records.add(`${endpointId}|${messageId}`),
    startCleanup: () => {
      cleanup.started += 1;
      return async () => {
        cleanup.stopped += 1;
      };
    },
  };
  return { inbox, records, cleanup };
}

describe('endpoint host: inbox', () => {
  it('fails fast when the inbox is enabled without a store, naming the endpoint and what to pass', async () => {
    const { transport } = await memoryBus();
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    const { store: _none, ...storeless } = setInbox().inbox;
    const create = (inbox: unknown) =>
      createEndpointHost({
        platform,
        endpoint: 'Billing',
        transport,
        subscriber,
        inbox: inbox as EndpointInbox,
      });
    expect(() => create(storeless)).toThrow(EndpointHostConfigurationError);
    expect(() => create(storeless)).toThrow(
      /inbox of endpoint 'Billing' is enabled but has no store.*createInbox/,
    );
    expect(() => create(null)).toThrow(/is not an inbox/);
  });

  it('skips a redelivered message the endpoint already handled and tells the Resolver; runs the cleanup while started', async () => {
    const { transport, sales } = await memoryBus();
    const handled: string[] = [];
    const { inbox, cleanup } = setInbox();
    const host = createEndpointHost({
      platform,
      endpoint: 'Billing',
      transport,
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
      inbox,
      logger: silentLogger,
      processor: { maxConcurrentSessions: 2, acceptWaitMs: 20, sessionIdleTimeoutMs: 20 },
    });
    await host.start();
    expect(cleanup).toEqual({ started: 1, stopped: 0 });
    await sales.publish(OrderPlaced, order(1), { messageId: 'order-1' });
    await eventually(() => handled.length === 1);
    await sales.publish(OrderPlaced, order(1), { messageId: 'order-1' });
    const resolver = async () => (await transport.peek(RESOLVER_INPUT, { max: 100 })).map(decodeEnvelope);
    await eventually(async () => (await resolver()).some((m) => m.messageType === MessageType.SkipResponse));
    await host.stop();
    expect(cleanup).toEqual({ started: 1, stopped: 1 });
    expect(handled).toEqual(['o-1']);
    const responses = (await resolver()).filter((m) => m.from === 'Billing').map((m) => m.messageType);
    expect(responses.sort()).toEqual([MessageType.ResolutionResponse, MessageType.SkipResponse]);
  });
});

describe('endpoint host: circuit breaker', () => {
  it('opens on failing handlers; while open the processor takes no message; after the break a probe closes it', async () => {
    const { transport, sales } = await memoryBus();
    const clock = new ManualClock();
    const breaker = new EndpointCircuitBreaker('Billing', {
      minimumThroughput: 2,
      failurePercentageThreshold: 50,
      breakDurationMs: 30_000,
      clock,
      logger: silentLogger,
    });
    let erpDown = true;
    const handled: string[] = [];
    const host = createEndpointHost({
      platform,
      endpoint: 'Billing',
      transport,
      subscriber: createSubscriber().on(OrderPlaced, (e) => {
        if (erpDown) throw new Error('ERP unavailable');
        handled.push(e.orderId);
      }),
      circuitBreaker: breaker,
      logger: silentLogger,
      processor: { maxConcurrentSessions: 2, acceptWaitMs: 20, sessionIdleTimeoutMs: 20 },
    });
    stops.unshift(() => host.stop());
    await host.start();
    await sales.publish(OrderPlaced, order(1, 'c-1'));
    await sales.publish(OrderPlaced, order(2, 'c-2'));
    await eventually(() => breaker.state === CircuitState.Open);
    await eventually(async () => (await transport.counts('Billing')).active === 0);
    const handledBefore = host.processor.stats.messagesHandled;

    await sales.publish(OrderPlaced, order(3, 'c-3'));
    await new Promise((resolve) => setTimeout(resolve, 150)); // many accept rounds of 20 ms
    const [waiting] = await transport.peek('Billing', { max: 10 });
    expect(waiting).toMatchObject({ sessionId: 'c-3', deliveryCount: 0 });
    expect(host.processor.stats.messagesHandled).toBe(handledBefore);
    expect(breaker.state).toBe(CircuitState.Open);

    erpDown = false;
    clock.advance(30_000);
    await eventually(() => handled.length === 1);
    expect(handled).toEqual(['o-3']);
    expect(breaker.state).toBe(CircuitState.Closed);
  });

  it('refuses a breaker together with prefetching', async () => {
    const { transport } = await memoryBus();
    expect(() =>
      createEndpointHost({
        platform,
        endpoint: 'Billing',
        transport,
        subscriber: createSubscriber(),
        circuitBreaker: new EndpointCircuitBreaker('Billing'),
        processor: { prefetchCount: 4 },
      }),
    ).toThrow(/prefetchCount/);
  });
});
