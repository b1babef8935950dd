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
  type SessionMessageHandler,
  silentLogger,
  uuidv7,
} from '@nimbus/core';
import { InProcessStateChangeNotifier, type StateChange } from '@nimbus/message-store';
import { ResolverHandler, type ResolverStore } from '@nimbus/resolver';
import { createMemoryTransport, type MemoryTransport } from '@nimbus/transport-memory';

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
  readonly clock = new ManualClock(Date.UTC(2026, 5, 1, 8));
  readonly transport: MemoryTransport = createMemoryTransport({ clock: this.clock });
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
  readonly #engine: MessageEngine;
  readonly #attempts = new Map<string, number>();

  constructor(readonly store: ResolverStore) {
    const notifier = new InProcessStateChangeNotifier();
    notifier.subscribe((change) => {
      this.changes.push(change);
    });
    this.resolver = new ResolverHandler({
      store,
      notifier,
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
      clock: this.clock,
      logger: silentLogger,
      retryPolicies: {
        retryPolicyFor: () => new RetryPolicy({ maxRetries: 2, baseDelayMs: 1_000 }),
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

  /** Runs Billing's input and the Resolver input until a full pass handles nothing. */
  async pump(): Promise<void> {
    for (let pass = 0; pass < 100; pass++) {
      const handled =
        (await this.#run(CONSUMER, this.#engine)) + (await this.#run(RESOLVER_INPUT, this.resolver));
      if (handled === 0) return;
    }
    throw new Error('the bus did not settle within 100 passes');
  }

  async #run(input: string, handler: SessionMessageHandler): Promise<number> {
    let handled = 0;
    for (;;) {
      const session = await this.transport.acceptSession(input, { waitMs: 0 });
      if (!session) return handled;
      try {
        await handler.onSessionAccepted?.(session);
        for (;;) {
          const batch = await session.receive(20, 0);
          if (batch.length === 0) break;
          for (const message of batch) {
            await handler.handleMessage(session, message);
            handled += 1;
          }
        }
      } finally {
        await session.release();
      }
    }
  }
}
