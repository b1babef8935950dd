import {
  Addresses,
  createEnvelope,
  type EventContextHandler,
  EventHandlerNotFoundError,
  encodeEnvelope,
  ManualClock,
  MessageEngine,
  type MessageEnvelope,
  MessageType,
  PermanentFailureError,
  RESOLVER_INPUT,
  RetryPolicy,
  silentLogger,
  systemClock,
  uuidv7,
} from '@nimbus/core';
import {
  InProcessStateChangeNotifier,
  type StateChange,
  withStateChangeNotifications,
} from '@nimbus/message-store';
import {
  type DeliveryTiming,
  deliverUntilQuiet,
  deliveryTiming,
  type InputWorker,
  RecordingTransport,
} from '@nimbus/testing';
import type { EndToEndFixture } from '@nimbus/testing/e2e';
import { ResolverHandler } from '../resolver-handler.js';
import type { ResolverStore } from '../resolver-store.js';

export const CUSTOMER_CHANGED = 'Crm.CustomerChanged';
export const PRODUCER = 'Crm';
export const CONSUMER = 'Billing';

export type Mode = 'ok' | 'fail' | 'flaky' | 'handoff' | 'poison' | 'unsupported';

export interface Payload {
  readonly id: string;
  readonly mode: Mode;
}

/**
 * A whole bus in one process, driven by hand: Crm publishes, Billing's real engine handles, and the
 * Resolver projects everything into `store`. `pump()` runs every input until nothing is left to do.
 */
export class Bus {
  /**
   * The Resolver's clock: the transport's manual clock, or on real time one of its own starting now, so a
   * test can move through the Resolver's in-place store back-off (the engine then reads the system clock).
   */
  readonly clock: ManualClock;
  readonly transport: RecordingTransport;
  readonly changes: StateChange[] = [];
  /** Payload ids in the order Billing's handler saw them. */
  readonly handled: string[] = [];
  /** Ids that fail no more (an operator fixed the cause). */
  readonly healed = new Set<string>();
  /** Payload id → the EventId of Billing's copy, as the handler saw it. */
  readonly eventIds = new Map<string, string>();
  readonly resolver: ResolverHandler;
  /** A session of this bus alone, so buses can share one store. */
  readonly session = `customer-${uuidv7()}`;
  /**
   * The engine's retry delay: 1 s on a manual clock; on real time 2.5 s, so a pump under load ends before the
   * retry falls due and the case sees the failure first.
   */
  readonly retryDelayMs: number;
  readonly #engine: MessageEngine;
  readonly #attempts = new Map<string, number>();
  readonly #timing: DeliveryTiming;

  readonly store: ResolverStore;

  constructor(
    store: ResolverStore,
    readonly fixture: EndToEndFixture,
    /** What `store` (and a co-located store projection, when the transport has one) tells after each commit. */
    notifier: InProcessStateChangeNotifier = new InProcessStateChangeNotifier(),
  ) {
    this.store = withStateChangeNotifications(store, notifier);
    this.clock = fixture.clock ?? new ManualClock(Date.now());
    this.transport = new RecordingTransport(fixture.transport);
    this.#timing = deliveryTiming(fixture);
    this.retryDelayMs = fixture.clock ? 1_000 : 2_500;
    notifier.subscribe((change) => {
      this.changes.push(change);
    });
    this.resolver = new ResolverHandler({
      store: this.store,
      logger: silentLogger,
      clock: this.clock,
      version: 'e2e',
      auditorName: 'Manager',
    });
    const handler: EventContextHandler = {
      handle: async (context) => {
        const payload = JSON.parse(context.message.content.eventContent?.eventJson ?? '{}') as Payload;
        this.handled.push(payload.id);
        this.eventIds.set(payload.id, context.message.eventId ?? '');
        const attempt = (this.#attempts.get(payload.id) ?? 0) + 1;
        this.#attempts.set(payload.id, attempt);
        if (this.healed.has(payload.id)) return;
        switch (payload.mode) {
          case 'fail':
            throw new Error(`cannot book customer ${payload.id}`);
          case 'flaky':
            if (attempt === 1) throw new Error('ledger briefly locked');
            return;
          case 'handoff':
            context.markPendingHandoff({
              reason: 'Waiting for ERP batch',
              externalJobId: `job-${payload.id}`,
            });
            return;
          case 'poison':
            throw new PermanentFailureError(`customer ${payload.id} has no account number`);
          case 'unsupported':
            throw new EventHandlerNotFoundError(context.message.eventTypeId);
          default:
            return;
        }
      },
    };
    this.#engine = new MessageEngine({
      endpointId: CONSUMER,
      handler,
      clock: fixture.clock ?? systemClock,
      logger: silentLogger,
      retryPolicies: {
        retryPolicyFor: () => new RetryPolicy({ maxRetries: 2, baseDelayMs: this.retryDelayMs }),
      },
    });
  }

  async start(): Promise<this> {
    await this.transport.applyTopology({
      endpoints: [PRODUCER, CONSUMER],
      routes: [{ source: PRODUCER, eventTypeId: CUSTOMER_CHANGED, target: CONSUMER }],
    });
    return this;
  }

  /** Crm publishes one event; routing makes Billing's copy (fresh EventId) and the Resolver's copy. */
  async publish(payload: Payload, sessionId = this.session): Promise<void> {
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: CUSTOMER_CHANGED,
      sessionId,
      correlationId: `corr-${payload.id}`,
      messageType: MessageType.EventRequest,
      originatingFrom: PRODUCER,
      content: {
        eventContent: { eventTypeId: CUSTOMER_CHANGED, eventJson: JSON.stringify(payload) },
        errorContent: null,
      },
    });
    await this.transport.publish([{ source: PRODUCER, messages: [encodeEnvelope(envelope)] }]);
  }

  /** An operator request about an event row (resubmit, skip, handoff settlement), as the WebApp sends it. */
  async operator(
    messageType: MessageType,
    row: { eventId: string; sessionId: string; lastMessageId: string | null },
    content: MessageEnvelope['content'],
  ): Promise<void> {
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: CONSUMER,
      from: Addresses.manager,
      sessionId: row.sessionId,
      messageType,
      eventId: row.eventId,
      eventTypeId: CUSTOMER_CHANGED,
      parentMessageId: row.lastMessageId ?? 'self',
      originatingFrom: Addresses.manager,
      content,
    });
    await this.transport.publish([{ source: CONSUMER, messages: [encodeEnvelope(envelope)] }]);
  }

  /** Lets `ms` pass for the bus: moves its manual clock, or waits in real time. */
  async elapse(ms: number): Promise<void> {
    if (this.fixture.clock) this.fixture.clock.advance(ms);
    else await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Runs Billing's input and the Resolver input until a full pass handles nothing. */
  async pump(): Promise<void> {
    const engine = this.#engine;
    const workers: InputWorker[] = [
      {
        input: CONSUMER,
        onSessionAccepted: (session) => engine.onSessionAccepted(session),
        handleMessage: (session, message) => engine.handleMessage(session, message),
      },
      {
        input: RESOLVER_INPUT,
        handleMessage: (session, message) => this.resolver.handleMessage(session, message),
      },
    ];
    await deliverUntilQuiet(this.transport, workers, this.#timing, { maxRounds: 100 });
  }
}
