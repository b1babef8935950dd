import {
  createEnvelope,
  encodeEnvelope,
  type FailureClassifier,
  HEARTBEAT_EVENT_TYPE_ID,
  MessageType,
  PermanentFailureClassifier,
  SessionProcessorOptionsError,
  silentLogger,
  TransportError,
  TransportErrorCode,
  topologyFromPlatform,
} from '@nimbus/core';
import {
  createEndpointHost,
  createSubscriber,
  EndpointHostConfigurationError,
  type EndpointHostOptions,
  type EndpointInbox,
  HandlerRegistrationError,
} from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { createTestBus } from '../src/index.js';
import { OrderPlaced, order, platform } from './fixtures.js';
import { eventually, memorySalesBus, stopsAfterEach } from './support/host-fixtures.js';

// Reference §7.4 NimBus.SDK.Tests about hosting: SubscriberRegistration, InboxRegistration,
// InboxPurgeHostedService, DeferredMessageDispatcher/DeferredProcessorRegistration, HeartbeatAutoAnswer,
// NimBusReceiverHostedService and ReceiverRegistration, adapted to createEndpointHost and the test bus.
// There is no DI container: what .NET registers, NimBus TS takes as host options, checked at construction.

const stops = stopsAfterEach();

const fastProcessor = { maxConcurrentSessions: 2, acceptWaitMs: 20, sessionIdleTimeoutMs: 20 } as const;

const memory = () => memorySalesBus(stops);

function host(options: Partial<EndpointHostOptions> & Pick<EndpointHostOptions, 'transport'>) {
  const created = createEndpointHost({
    platform,
    endpoint: 'Billing',
    subscriber: createSubscriber(),
    logger: silentLogger,
    processor: fastProcessor,
    ...options,
  });
  stops.unshift(() => created.stop());
  return created;
}

/** A structural inbox over a set, counting calls and cleanup starts/stops. */
function setInbox() {
  const records = new Set<string>();
  const calls = { check: 0, record: 0, started: 0, stopped: 0 };
  const inbox: EndpointInbox = {
    store: records,
    check: async (endpointId, messageId) => {
      calls.check += 1;
      return records.has(`${endpointId}|${messageId}`) ? 'duplicate' : 'process';
    },
    record: async (endpointId, messageId) => {
      calls.record += 1;
      records.add(`${endpointId}|${messageId}`);
    },
    startCleanup: () => {
      calls.started += 1;
      return async () => {
        calls.stopped += 1;
      };
    },
  };
  return { inbox, calls };
}

describe('7.4 SubscriberRegistration (hosting)', () => {
  it('7.4 SubscriberRegistration: failure-disposition and permanent classifiers are wired with no behaviours or observers', async () => {
    const discardAll: FailureClassifier = { name: 'discardAll', classify: () => 'discard' };
    for (const [classifier, expected] of [
      [discardAll, MessageType.SkipResponse],
      [new PermanentFailureClassifier(), MessageType.ErrorResponse],
    ] as const) {
      const bus = createTestBus({ platform });
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, () => {
          throw new SyntaxError('bad data');
        }),
        failureClassifier: classifier,
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1));
      await bus.deliverAll();
      expect(bus.responses().map((r) => r.messageType)).toEqual([expected]);
      const deadLetters = await bus.deadLetters('Billing');
      expect(deadLetters.length).toBe(classifier === discardAll ? 0 : 1);
    }
  });

  it('7.4 SubscriberRegistration: (adapted: one subscriber per endpoint) hosts of two endpoints cannot share a subscriber; a restarted host of the same endpoint can', async () => {
    const { transport } = await memory();
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    host({ transport, subscriber });
    host({ transport, subscriber });
    expect(() => host({ transport, subscriber, endpoint: 'Shipping' })).toThrow(HandlerRegistrationError);
  });

  it('7.4 SubscriberRegistration: (N/A in NimBus TS: the outbox dispatcher is @nimbus/reliability) a host without a transport fails with an actionable message', () => {
    expect(() => host({ transport: undefined as never })).toThrow('Publisher needs a transport.');
  });
});

describe('7.4 InboxRegistration', () => {
  it('7.4 InboxRegistration: (adapted: no provider names) something that is not an inbox, or lacks check/record, is rejected naming the endpoint', async () => {
    const { transport } = await memory();
    expect(() => host({ transport, inbox: 'SqlServer' as never })).toThrow(
      "The inbox of endpoint 'Billing' is enabled but is not an inbox",
    );
    const { check: _missing, ...noCheck } = setInbox().inbox;
    expect(() => host({ transport, inbox: noCheck as EndpointInbox })).toThrow(
      "The inbox of endpoint 'Billing' has no check() function",
    );
  });

  it('7.4 InboxRegistration: an inbox without a store fails at construction with guidance', async () => {
    const { store: _none, ...storeless } = setInbox().inbox;
    const bus = createTestBus({ platform });
    expect(() =>
      bus.endpoint('Billing', { subscriber: createSubscriber(), inbox: storeless as EndpointInbox }),
    ).toThrow(/has no store: pass inbox: createInbox\(\{ store: new MemoryInboxStore\(\)/);
  });

  it('7.4 InboxRegistration: the selected inbox wraps handling (check, handle, record) and its cleanup runs with the host', async () => {
    const { transport, sales } = await memory();
    const { inbox, calls } = setInbox();
    const handled: string[] = [];
    const billing = host({
      transport,
      inbox,
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
    });
    await billing.start();
    expect(calls.started).toBe(1);
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => calls.record === 1);
    expect([calls.check, handled]).toEqual([1, ['o-1']]);
    await billing.stop();
    expect(calls.stopped).toBe(1);
  });

  it('7.4 InboxRegistration: without an inbox nothing deduplicates: a repeated message id runs the handler again', async () => {
    const bus = createTestBus({ platform });
    const handled: string[] = [];
    bus.endpoint('Billing', {
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
    });
    const sales = bus.publisher('Sales');
    await sales.publish(OrderPlaced, order(1), { messageId: 'same' });
    await sales.publish(OrderPlaced, order(1), { messageId: 'same' });
    await bus.deliverAll();
    expect(handled).toEqual(['o-1', 'o-1']);
    expect(bus.responses({ type: MessageType.SkipResponse })).toHaveLength(0);
  });

  it('7.4 InboxRegistration: (N/A in NimBus TS: no custom subscriber clients) the inbox given to the test bus deduplicates exactly as on a host', async () => {
    const bus = createTestBus({ platform });
    const { inbox } = setInbox();
    const handled: string[] = [];
    bus.endpoint('Billing', {
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
      inbox,
    });
    const sales = bus.publisher('Sales');
    await sales.publish(OrderPlaced, order(1), { messageId: 'same' });
    await bus.deliverAll();
    await sales.publish(OrderPlaced, order(1), { messageId: 'same' });
    await bus.deliverAll();
    expect(handled).toEqual(['o-1']);
    expect(bus.responses({ type: MessageType.SkipResponse })).toHaveLength(1);
  });

  it('7.4 InboxRegistration: (N/A in NimBus TS: no custom subscriber clients) a host without an inbox starts and stops no cleanup and consults nothing', async () => {
    const { transport, sales } = await memory();
    const { calls } = setInbox();
    const handled: string[] = [];
    const billing = host({
      transport,
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
    });
    await billing.start();
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => handled.length === 1);
    await billing.stop();
    expect(calls).toEqual({ check: 0, record: 0, started: 0, stopped: 0 });
  });

  it('7.4 InboxRegistration: (N/A in NimBus TS: no late client registration) inbox options are checked at construction, before anything starts', async () => {
    const { transport } = await memory();
    const subscriber = createSubscriber();
    expect(() => host({ transport, subscriber, inbox: { store: new Set() } as never })).toThrow(
      EndpointHostConfigurationError,
    );
    // The failed construction bound nothing: the subscriber can still serve another endpoint.
    expect(subscriber.endpointId).toBeNull();
  });

  it('7.4 InboxRegistration: a complete inbox (store, check, record) passes validation and the host starts', async () => {
    const { transport } = await memory();
    const billing = host({ transport, inbox: setInbox().inbox });
    await billing.start();
    expect(billing.processor.running).toBe(true);
  });

  it('7.4 InboxRegistration: (adapted) registering the endpoint again replaces it whole: a later registration without an inbox consults none', async () => {
    const bus = createTestBus({ platform });
    const { inbox, calls } = setInbox();
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    bus.endpoint('Billing', { subscriber, inbox });
    bus.endpoint('Billing', { subscriber });
    await bus.publisher('Sales').publish(OrderPlaced, order(1));
    await bus.deliverAll();
    expect(calls.check).toBe(0);
    expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(1);
  });
});

describe('7.4 InboxPurgeHostedService', () => {
  it('7.4 InboxPurgeHostedService: (N/A in NimBus TS: the purge loop and its retries are @nimbus/reliability createInbox) the host starts the cleanup once however often it is started', async () => {
    const { transport } = await memory();
    const { inbox, calls } = setInbox();
    const billing = host({ transport, inbox });
    await billing.start();
    await billing.start();
    expect(calls.started).toBe(1);
  });

  it('7.4 InboxPurgeHostedService: stop waits for an in-progress purge to end', async () => {
    const { transport } = await memory();
    let finishPurge: () => void = () => undefined;
    let purgeEnded = false;
    const { inbox } = setInbox();
    const billing = host({
      transport,
      inbox: {
        ...inbox,
        startCleanup: () => () =>
          new Promise<void>((resolve) => {
            finishPurge = () => {
              purgeEnded = true;
              resolve();
            };
          }),
      },
    });
    await billing.start();
    let stopped = false;
    const stopping = billing.stop().then(() => {
      stopped = true;
    });
    await eventually(() => !billing.processor.running);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    finishPurge();
    await stopping;
    expect(purgeEnded).toBe(true);
  });
});

describe('7.4 DeferredMessageDispatcher / DeferredProcessorRegistration', () => {
  it('7.4 DeferredProcessorRegistration: (N/A in NimBus TS: no deferred processor; parked messages replay inside their session) a subscriber alone is enough to replay', async () => {
    const bus = createTestBus({ platform });
    const handled: number[] = [];
    bus.endpoint('Billing', {
      subscriber: createSubscriber().on(OrderPlaced, (e) => {
        if (e.amount === 1) throw new Error('first fails');
        handled.push(e.amount);
      }),
    });
    const sales = bus.publisher('Sales');
    await sales.publish(OrderPlaced, order(1));
    await sales.publish(OrderPlaced, order(2));
    await bus.deliverAll();
    expect(bus.responses({ type: MessageType.DeferralResponse })).toHaveLength(1);
    const [failed] = bus.responses({ type: MessageType.ErrorResponse });
    await bus.operator.skip(failed!);
    await bus.deliverAll();
    expect(handled).toEqual([2]);
  });

  it('7.4 DeferredProcessorRegistration: (N/A in NimBus TS) the topology has no Deferred input to register a processor for', () => {
    const { endpoints } = topologyFromPlatform(platform);
    expect(endpoints).toEqual(['Billing', 'Sales', 'Shipping']);
  });

  it('7.4 DeferredProcessorRegistration: (adapted) custom concurrency flows through to the host processor', async () => {
    const { transport, sales } = await memory();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const billing = host({
      transport,
      subscriber: createSubscriber().on(OrderPlaced, () => gate),
      processor: { ...fastProcessor, maxConcurrentSessions: 3 },
    });
    await billing.start();
    for (const customer of ['a', 'b', 'c', 'd']) await sales.publish(OrderPlaced, order(1, customer));
    await eventually(() => billing.processor.stats.activeSessions === 3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(billing.processor.stats.activeSessions).toBe(3);
    release();
    await eventually(() => billing.processor.stats.messagesHandled === 4);
  });

  it('7.4 DeferredProcessorRegistration: (adapted) non-positive concurrency is rejected', async () => {
    const { transport } = await memory();
    expect(() => host({ transport, processor: { maxConcurrentSessions: 0 } })).toThrow(
      SessionProcessorOptionsError,
    );
  });

  it('7.4 DeferredProcessorRegistration: (adapted) registering the same endpoint twice on the test bus is harmless: each message handled once', async () => {
    const bus = createTestBus({ platform });
    const handled: string[] = [];
    const subscriber = createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId));
    bus.endpoint('Billing', { subscriber });
    bus.endpoint('Billing', { subscriber });
    await bus.publisher('Sales').publish(OrderPlaced, order(1));
    await bus.deliverAll();
    expect(handled).toEqual(['o-1']);
  });
});

describe('7.4 HeartbeatAutoAnswer', () => {
  it('7.4 HeartbeatAutoAnswer: a heartbeat with no handler is answered with a ResolutionResponse', async () => {
    const bus = createTestBus({ platform });
    bus.endpoint('Billing', { subscriber: createSubscriber() });
    const probe = createEnvelope({
      messageId: 'probe-1',
      to: 'Billing',
      from: 'Manager',
      sessionId: 'Heartbeat',
      messageType: MessageType.EventRequest,
      eventId: 'probe-event',
      eventTypeId: HEARTBEAT_EVENT_TYPE_ID,
      content: {
        eventContent: { eventTypeId: HEARTBEAT_EVENT_TYPE_ID, eventJson: '{"forwardSendTime":null}' },
        errorContent: null,
      },
    });
    await bus.transport.publish([{ source: 'Billing', messages: [encodeEnvelope(probe)] }]);
    await bus.deliverAll();
    const answers = bus.responses({ eventId: 'probe-event' });
    expect(answers.map((a) => [a.messageType, a.eventTypeId])).toEqual([
      [MessageType.ResolutionResponse, HEARTBEAT_EVENT_TYPE_ID],
    ]);
  });
});

describe('7.4 NimBusReceiverHostedService / ReceiverRegistration', () => {
  it('7.4 NimBusReceiverHostedService: recoverable transport errors do not stop receiving', async () => {
    const { transport, sales } = await memory();
    let failures = 2;
    const flaky = Object.create(transport) as typeof transport;
    flaky.acceptSession = async (input, options) => {
      if (failures > 0) {
        failures -= 1;
        throw new TransportError(TransportErrorCode.ServiceUnavailable, 'broker restarting');
      }
      return transport.acceptSession(input, options);
    };
    const handled: string[] = [];
    const billing = host({
      transport: flaky,
      subscriber: createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId)),
      processor: { ...fastProcessor, maxConcurrentSessions: 1, errorBackoffMs: 1, maxErrorBackoffMs: 5 },
    });
    await billing.start();
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => handled.length === 1);
    expect(failures).toBe(0);
    expect(billing.processor.running).toBe(true);
  });

  it('7.4 NimBusReceiverHostedService: handler failures do not stop receiving', async () => {
    const { transport, sales } = await memory();
    const handled: string[] = [];
    const billing = host({
      transport,
      subscriber: createSubscriber().on(OrderPlaced, (e) => {
        if (e.customerId === 'bad') throw new Error('handler bug');
        handled.push(e.orderId);
      }),
    });
    await billing.start();
    await sales.publish(OrderPlaced, order(1, 'bad'));
    await sales.publish(OrderPlaced, order(2, 'good'));
    await eventually(() => handled.length === 1);
    expect(billing.processor.running).toBe(true);
  });

  it('7.4 NimBusReceiverHostedService: processor options are applied; prefetch defaults to 0 and a negative one is rejected', async () => {
    const { transport } = await memory();
    expect(() => host({ transport, processor: { prefetchCount: -1 } })).toThrow(SessionProcessorOptionsError);
    const billing = host({ transport });
    await billing.start();
    expect(billing.processor.running).toBe(true);
  });

  it('7.4 NimBusReceiverHostedService: (differs in NimBus TS: one lifecycle, no restart) a stopped host refuses start() with Closed; a new host keeps processing', async () => {
    const { transport, sales } = await memory();
    const handled: string[] = [];
    const subscriber = createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId));
    const billing = host({ transport, subscriber });
    await billing.start();
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => handled.length === 1);
    await billing.stop();
    await expect(billing.start()).rejects.toMatchObject({ code: 'Closed' });
    const next = host({ transport, subscriber });
    await next.start();
    await sales.publish(OrderPlaced, order(2));
    await eventually(() => handled.length === 2);
  });

  it('7.4 NimBusReceiverHostedService: (N/A in NimBus TS: no shutdown timeout) stop waits for the message in hand, then takes no more', async () => {
    const { transport, sales } = await memory();
    let release: () => void = () => undefined;
    const started: string[] = [];
    const billing = host({
      transport,
      subscriber: createSubscriber().on(OrderPlaced, async (e) => {
        started.push(e.orderId);
        if (e.orderId === 'o-1') await new Promise<void>((resolve) => (release = resolve));
      }),
      processor: { ...fastProcessor, maxConcurrentSessions: 1 },
    });
    await billing.start();
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => started.length === 1);
    const stopping = billing.stop();
    await sales.publish(OrderPlaced, order(2));
    release();
    await stopping;
    expect(started).toEqual(['o-1']);
    expect((await transport.counts('Billing')).active).toBe(1);
  });

  it('7.4 NimBusReceiverHostedService: (N/A in NimBus TS: no cancellation tokens) stop on a host that never started resolves at once', async () => {
    const { transport } = await memory();
    await host({ transport }).stop();
  });

  it('7.4 ReceiverRegistration: two hosts receive for their own endpoints side by side', async () => {
    const { transport, sales } = await memory();
    const seen: string[] = [];
    const billing = host({
      transport,
      subscriber: createSubscriber().on(OrderPlaced, () => void seen.push('Billing')),
    });
    const shipping = host({
      transport,
      endpoint: 'Shipping',
      subscriber: createSubscriber().on(OrderPlaced, () => void seen.push('Shipping')),
    });
    await billing.start();
    await shipping.start();
    await sales.publish(OrderPlaced, order(1));
    await eventually(() => seen.length === 2);
    expect(seen.sort()).toEqual(['Billing', 'Shipping']);
  });
});
