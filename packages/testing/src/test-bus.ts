import {
  type Clock,
  decodeEnvelope,
  type EngineHandlingOptions,
  type Logger,
  ManualClock,
  MessageEngine,
  type MessageEnvelope,
  MessageType,
  NimBusError,
  NimBusErrorCode,
  type Platform,
  RESOLVER_INPUT,
  RESPONSE_TYPES,
  silentLogger,
  systemClock,
  type Transport,
  type TransportMessage,
  topologyFromPlatform,
} from '@nimbus/core';
import {
  assertEndpointInbox,
  type EndpointInbox,
  HandoffClient,
  OperatorClient,
  Publisher,
  type Subscriber,
} from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import {
  type DeliverAllOptions,
  type DeliveryReport,
  type DeliveryTiming,
  deliverUntilQuiet,
  deliveryTiming,
  type InputWorker,
} from './delivery.js';
import { RecordingTransport } from './recording-transport.js';

/** A transport to run the bus over instead of the in-memory one, and how it keeps time. */
export interface TestBusTransport {
  readonly transport: Transport;
  /**
   * The manual clock `transport` reads (the engines get it too), or null when the transport runs on real time:
   * then the engines use the system clock and `deliverAll({ advanceTime })` waits for scheduled work.
   */
  readonly clock: ManualClock | null;
  /** How long an accept or a receive waits for a message already on its way (default 0; a broker needs more). */
  readonly waitMs?: number;
  /** Real time only: how late scheduled work may become visible after its due time (default 50 ms). */
  readonly scheduleLagMs?: number;
  /**
   * Delivers an input's messages in place of the bus's own accept loop (a host's part, e.g. the Azure Functions
   * host driver): hands each to `worker` and resolves with how many it handled. Sessions it obtains go through
   * `recording.track` so that scheduled work is waited for.
   */
  readonly drainInput?: (
    input: string,
    worker: InputWorker,
    recording: RecordingTransport,
  ) => Promise<number>;
  /**
   * A transport that records some Resolver copies in a co-located store instead of delivering them: the bus
   * registers here to log each such copy (after its transaction committed) as if the Resolver had received it.
   */
  readonly onRecordedForResolver?: (listener: (message: TransportMessage) => void) => void;
}

export interface TestBusOptions {
  readonly platform: Platform;
  /** Start time of the manual clock (default 2026-01-01T00:00:00Z). */
  readonly startTime?: Date;
  readonly logger?: Logger;
  /** Forwarded to the in-memory transport (e.g. a small `maxBatchBytes`). */
  readonly maxBatchBytes?: number;
  readonly maxDeliveryCount?: number;
  /**
   * Runs the bus over this transport (the bus applies the platform's topology and closes it on `close()`);
   * `startTime`, `maxBatchBytes` and `maxDeliveryCount` then do not apply.
   */
  readonly transport?: TestBusTransport;
}

export interface TestEndpointOptions extends EngineHandlingOptions {
  readonly subscriber: Subscriber;
  /** Randomness for retry jitter (default: always 0, so delays are exact). */
  readonly random?: () => number;
  /** Parked messages replayed per settlement before a continuation takes over (engine default 500). */
  readonly maxReplayPerSettlement?: number;
  /** Consumer deduplication, as on `createEndpointHost` (e.g. `createInbox` of `@nimbus/reliability`). */
  readonly inbox?: EndpointInbox;
}

/**
 * The real subscriber pipeline over the in-memory transport (or `options.transport`), driven step by step: publish, then
 * `deliverAll()` runs every endpoint until nothing is left; what reached the Resolver is recorded so tests
 * can assert on outcomes (Completed, Failed, Skipped …) as well as on handler side effects.
 */
export class TestBus {
  readonly platform: Platform;
  /** The clock the engines read: a manual clock (the in-memory transport's), or the system clock on real time. */
  readonly clock: Clock;
  readonly transport: RecordingTransport;
  readonly operator: OperatorClient;
  /** Every message that reached the Resolver input, in arrival order. */
  readonly resolverLog: MessageEnvelope[] = [];
  readonly #engines = new Map<string, MessageEngine>();
  readonly #logger: Logger;
  readonly #timing: DeliveryTiming;
  readonly #drainInput: TestBusTransport['drainInput'];
  #ready: Promise<unknown>;

  constructor(options: TestBusOptions) {
    this.platform = options.platform;
    const given = options.transport ?? {
      transport: null,
      clock: new ManualClock(options.startTime ?? Date.UTC(2026, 0, 1)),
    };
    this.clock = given.clock ?? systemClock;
    this.#timing = deliveryTiming(given);
    this.#drainInput = given.transport ? options.transport?.drainInput : undefined;
    this.#logger = options.logger ?? silentLogger;
    const inner =
      given.transport ??
      createMemoryTransport({
        clock: this.clock,
        ...(options.maxBatchBytes ? { maxBatchBytes: options.maxBatchBytes } : {}),
        ...(options.maxDeliveryCount ? { maxDeliveryCount: options.maxDeliveryCount } : {}),
      });
    this.transport = new RecordingTransport(inner);
    options.transport?.onRecordedForResolver?.((message) => this.resolverLog.push(decodeEnvelope(message)));
    this.operator = new OperatorClient(this.transport);
    this.#ready = this.transport.applyTopology(topologyFromPlatform(options.platform));
  }

  /** Resolves once the platform's topology is applied (await it before publishing over a remote transport). */
  async ready(): Promise<void> {
    await this.#ready;
  }

  /** Runs an endpoint's engine over its input with the given subscriber and policies. */
  endpoint(endpointId: string, options: TestEndpointOptions): MessageEngine {
    const endpoint = this.platform.getEndpoint(endpointId);
    if (!endpoint)
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `Endpoint '${endpointId}' is not part of the platform.`,
      );
    if (options.inbox !== undefined) assertEndpointInbox(options.inbox, endpointId);
    options.subscriber.bindEndpoint(endpointId).usePublisher(this.publisher(endpointId));
    const engine = new MessageEngine({
      endpointId,
      handler: options.subscriber.asContextHandler(),
      clock: this.clock,
      logger: this.#logger,
      retryPolicies: options.retryPolicies,
      failureClassifier: options.failureClassifier,
      behaviours: options.behaviours,
      observers: options.observers,
      random: options.random ?? (() => 0),
      maxReplayPerSettlement: options.maxReplayPerSettlement,
      inbox: options.inbox ?? null,
      messagingSystem: this.transport.name,
    });
    this.#engines.set(endpointId, engine);
    return engine;
  }

  publisher(endpointId: string): Publisher {
    return new Publisher({
      transport: this.transport,
      endpoint: endpointId,
      platform: this.platform,
      clock: this.clock,
    });
  }

  handoff(endpointId: string): HandoffClient {
    return new HandoffClient(this.transport, endpointId);
  }

  /** Delivers until every input is empty; with `advanceTime`, also runs scheduled retries as they fall due. */
  async deliverAll(options: DeliverAllOptions = {}): Promise<DeliveryReport> {
    await this.#ready;
    const workers: InputWorker[] = [...this.#engines].map(([input, engine]) => ({
      input,
      onSessionAccepted: (session) => engine.onSessionAccepted(session),
      handleMessage: (session, message) => engine.handleMessage(session, message),
    }));
    workers.push({
      input: RESOLVER_INPUT,
      handleMessage: async (session, message) => {
        this.resolverLog.push(decodeEnvelope(message));
        await session.complete(message);
      },
    });
    return deliverUntilQuiet(this.transport, workers, this.#timing, options, this.#drainInput);
  }

  /** Responses the Resolver received, optionally of one type and/or for one event. */
  responses(
    filter: { readonly type?: MessageType; readonly eventId?: string | null } = {},
  ): MessageEnvelope[] {
    return this.resolverLog.filter(
      (m) =>
        RESPONSE_TYPES.has(m.messageType) &&
        (filter.type === undefined || m.messageType === filter.type) &&
        (filter.eventId === undefined || m.eventId === filter.eventId),
    );
  }

  /** The latest response type per EventId: the outcome the Resolver would show. */
  outcomes(): Map<string, MessageType> {
    const outcomes = new Map<string, MessageType>();
    for (const m of this.responses()) {
      // A refusal changes no outcome: the event keeps the one it had.
      if (m.eventId && m.messageType !== MessageType.RefusalResponse) outcomes.set(m.eventId, m.messageType);
    }
    return outcomes;
  }

  /** The EventRequest copies the Resolver saw for one endpoint (each carries that delivery's EventId). */
  requestsTo(endpointId: string): MessageEnvelope[] {
    return this.resolverLog.filter((m) => m.messageType === 'EventRequest' && m.to === endpointId);
  }

  deadLetters(endpointId: string) {
    return this.transport.peekDeadLetters(endpointId, 1_000);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

export function createTestBus(options: TestBusOptions): TestBus {
  return new TestBus(options);
}
