import {
  type Clock,
  countMetric,
  createEnvelope,
  type Endpoint,
  type EventType,
  encodeEnvelope,
  Header,
  injectTraceContext,
  type MessageEnvelope,
  MessageType,
  MessagingOperation,
  MetricName,
  messageAttributes,
  NimBusError,
  NimBusErrorCode,
  type Platform,
  recordDuration,
  resolveSessionId,
  type ScheduleHandle,
  SpanName,
  systemClock,
  TelemetryAttribute,
  TelemetryScope,
  type Transport,
  type TransportMessage,
  uuidv7,
  validateEvent,
  withSpan,
} from '@nimbus/core';
import { describeValue, transportMessageSize } from '@nimbus/core/transport-spi';
import { SpanKind } from '@opentelemetry/api';
import type { MessageLineage } from './handler-context.js';
import { deterministicMessageId } from './message-id.js';

export interface PublisherOptions {
  readonly transport: Transport;
  /** The publishing endpoint: its id, or its definition (then undeclared event types are refused). */
  readonly endpoint: string | Endpoint;
  /** When given with an endpoint id, the endpoint's declarations are looked up here. */
  readonly platform?: Platform;
  readonly clock?: Clock;
}

export interface PublishOptions {
  readonly sessionId?: string;
  readonly correlationId?: string;
  readonly messageId?: string;
}

/** One item of a mixed batch; each item is validated against its own event type before anything is sent. */
// biome-ignore lint/suspicious/noExplicitAny: a batch mixes event types, so the payload type varies per item
export type AnyPublishItem = PublishItem<any>;

export interface PublishItem<T = unknown> {
  readonly type: EventType<T>;
  readonly payload: T;
  readonly sessionId?: string;
  readonly messageId?: string;
}

export interface PublishReceipt {
  readonly messageId: string;
  readonly sessionId: string;
  readonly correlationId: string;
  readonly eventTypeId: string;
}

interface Built {
  readonly message: TransportMessage;
  readonly receipt: PublishReceipt;
  readonly size: number;
}

/**
 * Publishes events from one endpoint. Every event is validated against its schema before anything is sent;
 * an invalid event throws `EventValidationError` and nothing of the call is sent.
 */
export class Publisher {
  readonly endpointId: string;
  readonly #transport: Transport;
  readonly #endpoint: Endpoint | null;
  readonly #clock: Clock;

  constructor(options: PublisherOptions) {
    if (!options?.transport)
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'Publisher needs a transport.');
    const endpoint =
      typeof options.endpoint === 'string'
        ? (options.platform?.getEndpoint(options.endpoint) ?? null)
        : options.endpoint;
    this.endpointId = typeof options.endpoint === 'string' ? options.endpoint : options.endpoint?.id;
    if (!this.endpointId)
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'Publisher needs an endpoint id.');
    if (options.platform && typeof options.endpoint === 'string' && endpoint === null) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `Endpoint '${options.endpoint}' is not part of the platform.`,
      );
    }
    this.#transport = options.transport;
    this.#endpoint = endpoint;
    this.#clock = options.clock ?? systemClock;
  }

  /** Publishes one event. Session: explicit, else the event type's key; correlation: explicit, else new. */
  async publish<T>(type: EventType<T>, payload: T, options: PublishOptions = {}): Promise<PublishReceipt> {
    const built = this.#buildOriginal(type, payload, options);
    await this.#send([built.message]);
    return built.receipt;
  }

  /**
   * Publishes a follow-up of a handled message: same session and correlation (the inbound message's id when
   * it had none), parent = that message, origin kept. `messageId` is required and should be derived from the inbound message.
   */
  async publishFromContext<T>(
    type: EventType<T>,
    payload: T,
    context: MessageLineage,
    options: { readonly messageId: string },
  ): Promise<PublishReceipt> {
    if (!context)
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'publishFromContext needs the handler context.');
    if (!options?.messageId?.trim()) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'publishFromContext needs an explicit, deterministic messageId.',
      );
    }
    for (const field of ['messageId', 'sessionId'] as const) {
      if (!context[field]?.trim())
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          `publishFromContext: the context has no ${field}.`,
        );
    }
    // A message published without a correlation id (null) still gets follow-ups: they inherit the inbound
    // message's id as theirs, deterministically (a retried handler publishes the same follow-up).
    const correlationId = context.correlationId?.trim() ? context.correlationId : context.messageId;
    const built = this.#build(
      type,
      payload,
      { sessionId: context.sessionId, messageId: options.messageId },
      correlationId,
      context,
    );
    await this.#send([built.message]);
    return built.receipt;
  }

  /**
   * Publishes many events with one shared correlation id, paged so that each transport call stays within
   * `transport.capabilities.maxBatchBytes`; every event is serialised once. An event larger than the budget
   * goes alone (the transport will refuse it with MessageTooLarge). Nothing is sent if any event is invalid.
   */
  async publishMany(
    items: readonly AnyPublishItem[],
    options: { readonly correlationId?: string } = {},
  ): Promise<PublishReceipt[]> {
    const correlationId = options.correlationId ?? uuidv7(this.#clock.now());
    const built = items.map((item) => this.#build(item.type, item.payload, item, correlationId, null));
    for (const page of pageBySize(built, this.#transport.capabilities.maxBatchBytes)) {
      await this.#send(page.map((b) => b.message));
    }
    return built.map((b) => b.receipt);
  }

  /** Publishes an event that becomes visible at `at`; cancel it with {@link cancelScheduled}. */
  async schedule<T>(
    type: EventType<T>,
    payload: T,
    at: Date,
    options: PublishOptions = {},
  ): Promise<ScheduleHandle & { readonly receipt: PublishReceipt }> {
    if (!(at instanceof Date) || Number.isNaN(at.getTime()))
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'schedule needs a valid Date.');
    const built = this.#buildOriginal(type, payload, options);
    const handle = await this.#traced([built.message], ([stamped]) =>
      this.#transport.schedule(this.endpointId, stamped!, at),
    );
    return { ...handle, receipt: built.receipt };
  }

  async cancelScheduled(handle: ScheduleHandle): Promise<void> {
    await this.#transport.cancelScheduled(handle);
  }

  /**
   * Publishes a class-less event: a string event type id and its payload as JSON text, with no schema to
   * validate against (the text must be well-formed JSON). Identity, session and correlation follow the same
   * rules as {@link publish}; without an explicit session id each message gets a new one. The id must still
   * be declared as produced by this endpoint when the publisher knows its definition, so that it is routed.
   */
  async publishRaw(
    eventTypeId: string,
    eventJson: string,
    options: PublishOptions = {},
  ): Promise<PublishReceipt> {
    if (typeof eventTypeId !== 'string' || eventTypeId.trim() === '') {
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'publishRaw needs a non-blank event type id.');
    }
    if (typeof eventJson !== 'string')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, `publishRaw('${eventTypeId}') needs JSON text.`);
    try {
      JSON.parse(eventJson);
    } catch (error) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `publishRaw('${eventTypeId}'): the payload is not valid JSON: ${(error as Error).message}`,
      );
    }
    this.#assertProduces(eventTypeId);
    const now = this.#clock.now();
    const messageId = options.messageId || deterministicMessageId(eventTypeId, eventJson);
    const sessionId = options.sessionId || uuidv7(now);
    const correlationId = options.correlationId ?? uuidv7(now);
    const envelope = createEnvelope({
      messageId,
      to: eventTypeId,
      sessionId,
      correlationId,
      messageType: MessageType.EventRequest,
      eventTypeId,
      originatingFrom: this.endpointId,
      retryCount: 0,
      content: { eventContent: { eventTypeId, eventJson }, errorContent: null },
    });
    await this.#send([encodeEnvelope(envelope)]);
    return { messageId, sessionId, correlationId, eventTypeId };
  }

  /**
   * Sends a pre-built envelope exactly as built: no validation, no stamping of ids, lineage or trace context
   * (the publish span still records the send). For agents and bridges that build messages themselves.
   */
  async publishMessage(envelope: MessageEnvelope): Promise<void> {
    if (!envelope || typeof envelope !== 'object')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'publishMessage needs an envelope.');
    for (const field of ['messageId', 'to', 'sessionId', 'messageType'] as const) {
      if (typeof envelope[field] !== 'string' || envelope[field].trim() === '') {
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          `publishMessage: the envelope has no ${field}.`,
        );
      }
    }
    if (
      envelope.messageType === MessageType.EventRequest &&
      (typeof envelope.correlationId !== 'string' || envelope.correlationId.trim() === '')
    ) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `publishMessage: the envelope has no correlationId (got ${describeValue(envelope.correlationId)}); every event needs one, handlers publish their follow-ups under it.`,
      );
    }
    const message = encodeEnvelope(envelope);
    await this.#traced([message], () =>
      this.#transport.publish([{ source: this.endpointId, messages: [message] }]),
    );
  }

  /** Same as {@link publishMessage}. */
  publishEnvelope(envelope: MessageEnvelope): Promise<void> {
    return this.publishMessage(envelope);
  }

  #send(messages: readonly TransportMessage[]): Promise<void> {
    return this.#traced(messages, (stamped) =>
      this.#transport.publish([{ source: this.endpointId, messages: stamped }]),
    );
  }

  /**
   * One producer span `publish {To}` per transport call; `send` gets the messages stamped with its trace
   * context, so every consumer continues this trace. Counts and times the publish.
   */
  async #traced<T>(
    messages: readonly TransportMessage[],
    send: (stamped: TransportMessage[]) => Promise<T>,
  ): Promise<T> {
    const first = messages[0]!;
    const to = first.headers[Header.To] ?? 'unknown';
    const metricAttributes = {
      [TelemetryAttribute.Endpoint]: this.endpointId,
      [TelemetryAttribute.DestinationName]: to,
    };
    const started = this.#clock.now();
    try {
      const result = await withSpan(
        SpanName.publish(to),
        {
          ...messageAttributes(first, MessagingOperation.Publish, to, this.#transport.name),
          ...(messages.length > 1 ? { 'messaging.batch.message_count': messages.length } : {}),
        },
        () => send(messages.map((m) => ({ ...m, headers: injectTraceContext(m.headers) }))),
        { scope: TelemetryScope.Publisher, kind: SpanKind.PRODUCER },
      );
      countMetric(TelemetryScope.Publisher, MetricName.MessagePublished, metricAttributes, messages.length);
      return result;
    } catch (error) {
      countMetric(
        TelemetryScope.Publisher,
        MetricName.MessagePublishFailed,
        metricAttributes,
        messages.length,
      );
      throw error;
    } finally {
      recordDuration(
        TelemetryScope.Publisher,
        MetricName.MessagePublishDuration,
        this.#clock.now() - started,
        metricAttributes,
      );
    }
  }

  #assertProduces(eventTypeId: string): void {
    if (this.#endpoint && !this.#endpoint.produces.some((p) => p.id === eventTypeId)) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `Endpoint '${this.endpointId}' does not declare that it produces '${eventTypeId}'; no consumer would receive it.`,
      );
    }
  }

  /** An event that is not a follow-up: the given correlation id or a fresh one, and no parent message. */
  #buildOriginal<T>(type: EventType<T>, payload: T, options: PublishOptions): Built {
    return this.#build(type, payload, options, options.correlationId ?? uuidv7(this.#clock.now()), null);
  }

  #build<T>(
    type: EventType<T>,
    payload: T,
    options: PublishOptions,
    correlationId: string,
    parent: MessageLineage | null,
  ): Built {
    if (!type || typeof type.id !== 'string')
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'publish needs an event type.');
    this.#assertProduces(type.id);
    const value = validateEvent(type, payload);
    const eventJson = JSON.stringify(value);
    const messageId = options.messageId || deterministicMessageId(type.id, eventJson);
    const sessionId = resolveSessionId(type, value, options.sessionId);
    const envelope = createEnvelope({
      messageId,
      to: type.id,
      sessionId,
      correlationId,
      messageType: MessageType.EventRequest,
      eventTypeId: type.id,
      originatingFrom: this.endpointId,
      retryCount: 0,
      parentMessageId: parent ? parent.messageId : 'self',
      originatingMessageId: parent ? lineageOrigin(parent) : 'self',
      content: { eventContent: { eventTypeId: type.id, eventJson }, errorContent: null },
    });
    const message = encodeEnvelope(envelope);
    return {
      message,
      size: transportMessageSize(message),
      receipt: { messageId, sessionId, correlationId, eventTypeId: type.id },
    };
  }
}

function lineageOrigin(parent: MessageLineage): string {
  const origin = parent.originatingMessageId;
  return !origin || origin.toLowerCase() === 'self' ? parent.messageId : origin;
}

function pageBySize(built: readonly Built[], budget: number): Built[][] {
  const pages: Built[][] = [];
  let page: Built[] = [];
  let used = 0;
  for (const item of built) {
    if (page.length > 0 && used + item.size > budget) {
      pages.push(page);
      page = [];
      used = 0;
    }
    page.push(item);
    used += item.size;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

export function createPublisher(options: PublisherOptions): Publisher {
  return new Publisher(options);
}
