import {
  decodeEnvelope,
  type EngineHandlingOptions,
  type Logger,
  ManualClock,
  MessageEngine,
  type MessageEnvelope,
  MessageType,
  type Platform,
  RESOLVER_INPUT,
  RESPONSE_TYPES,
  silentLogger,
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
import { RecordingTransport } from './recording-transport.js';

export interface TestBusOptions {
  readonly platform: Platform;
  /** Start time of the manual clock (default 2026-01-01T00:00:00Z). */
  readonly startTime?: Date;
  readonly logger?: Logger;
  /** Forwarded to the in-memory transport (e.g. a small `maxBatchBytes`). */
  readonly maxBatchBytes?: number;
  readonly maxDeliveryCount?: number;
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

export interface DeliverAllOptions {
  /** Move the clock to each scheduled retry/publish when nothing else is left (default false). */
  readonly advanceTime?: boolean;
  /** Safety bound on accept rounds (default 10 000). */
  readonly maxRounds?: number;
}

export interface DeliveryReport {
  /** Messages handed to endpoint engines (replays inside a session are not counted separately). */
  readonly delivered: number;
  /** How far the clock was moved, in ms. */
  readonly advancedMs: number;
}

/**
 * The real subscriber pipeline over the in-memory transport, driven step by step: publish, then
 * `deliverAll()` runs every endpoint until nothing is left; what reached the Resolver is recorded so tests
 * can assert on outcomes (Completed, Failed, Skipped …) as well as on handler side effects.
 */
export class TestBus {
  readonly platform: Platform;
  readonly clock: ManualClock;
  readonly transport: RecordingTransport;
  readonly operator: OperatorClient;
  /** Every message that reached the Resolver input, in arrival order. */
  readonly resolverLog: MessageEnvelope[] = [];
  readonly #engines = new Map<string, MessageEngine>();
  readonly #logger: Logger;
  #ready: Promise<unknown>;

  constructor(options: TestBusOptions) {
    this.platform = options.platform;
    this.clock = new ManualClock(options.startTime ?? Date.UTC(2026, 0, 1));
    this.#logger = options.logger ?? silentLogger;
    const memory = createMemoryTransport({
      clock: this.clock,
      ...(options.maxBatchBytes ? { maxBatchBytes: options.maxBatchBytes } : {}),
      ...(options.maxDeliveryCount ? { maxDeliveryCount: options.maxDeliveryCount } : {}),
    });
    this.transport = new RecordingTransport(memory);
    this.operator = new OperatorClient(this.transport);
    this.#ready = this.transport.applyTopology(topologyFromPlatform(options.platform));
  }

  /** Runs an endpoint's engine over its input with the given subscriber and policies. */
  endpoint(endpointId: string, options: TestEndpointOptions): MessageEngine {
    const endpoint = this.platform.getEndpoint(endpointId);
    if (!endpoint) throw new TypeError(`Endpoint '${endpointId}' is not part of the platform.`);
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
    const started = this.clock.now();
    const maxRounds = options.maxRounds ?? 10_000;
    let delivered = 0;
    for (let round = 0; round < maxRounds; round++) {
      const handled = await this.#drainOnce();
      delivered += handled;
      if (handled > 0) continue;
      const [next] = options.advanceTime ? this.transport.pendingDueTimes(this.clock.now()) : [];
      if (next === undefined) return { delivered, advancedMs: this.clock.now() - started };
      this.clock.set(next);
    }
    throw new Error(
      `deliverAll: still busy after ${maxRounds} rounds; is a handler failing transiently forever?`,
    );
  }

  async #drainOnce(): Promise<number> {
    let handled = 0;
    for (const [input, engine] of this.#engines) handled += await this.#drainInput(input, engine);
    handled += await this.#drainInput(RESOLVER_INPUT, null);
    return handled;
  }

  async #drainInput(input: string, engine: MessageEngine | null): Promise<number> {
    let handled = 0;
    for (;;) {
      const session = await this.transport.acceptSession(input, { waitMs: 0 });
      if (session === null) return handled;
      try {
        await engine?.onSessionAccepted(session);
        for (;;) {
          const messages = await session.receive(50, 0);
          if (messages.length === 0) break;
          for (const message of messages) {
            handled += 1;
            if (engine) {
              await engine.handleMessage(session, message);
            } else {
              this.resolverLog.push(decodeEnvelope(message));
              await session.complete(message);
            }
          }
        }
      } finally {
        await session.release();
      }
    }
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
