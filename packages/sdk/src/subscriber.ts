import {
  type EventContextHandler,
  EventHandlerNotFoundError,
  type EventType,
  EventValidationError,
  type MessageHandlingContext,
  originatingOf,
  PermanentFailureError,
  tryValidate,
} from '@nimbus/core';
import type { HandlerContext } from './handler-context.js';
import type { Publisher } from './publisher.js';

export type EventHandler<T> = (event: T, context: HandlerContext) => Promise<void> | void;

/** A handler bound to its event type; what modules export for scanning. */
export interface HandlerDefinition<T = unknown> {
  readonly kind: 'nimbus.handler';
  readonly eventType: EventType<T>;
  readonly handle: EventHandler<T>;
  /** Used in error messages; defaults to the function name. */
  readonly name: string;
}

/** Declares a handler for export from a module; register modules with {@link Subscriber.register}. */
export function defineHandler<T>(
  eventType: EventType<T>,
  handle: EventHandler<T>,
  name?: string,
): HandlerDefinition<T> {
  if (!eventType || typeof eventType.id !== 'string')
    throw new TypeError('defineHandler needs an event type.');
  if (typeof handle !== 'function') throw new TypeError(`defineHandler('${eventType.id}') needs a function.`);
  return Object.freeze({
    kind: 'nimbus.handler',
    eventType,
    handle,
    name: name || handle.name || 'anonymous handler',
  });
}

function isHandlerDefinition(value: unknown): value is HandlerDefinition {
  return (
    typeof value === 'object' && value !== null && (value as HandlerDefinition).kind === 'nimbus.handler'
  );
}

interface Registration {
  readonly definition: HandlerDefinition;
  readonly explicit: boolean;
}

/** Raised at registration time when two different handlers claim one event type. */
export class HandlerRegistrationError extends Error {
  override readonly name = 'HandlerRegistrationError';
}

/**
 * Typed handlers per event type. Payloads are parsed and validated against the type's schema before the
 * handler runs; a payload that is not JSON, does not match the schema, or names another type is a
 * permanent failure (dead-lettered, never retried).
 */
export class Subscriber {
  readonly #registrations = new Map<string, Registration>();
  #publisher: Publisher | null = null;

  /** Registers the handler for one event type; the payload type is inferred from the event type. */
  on<T>(eventType: EventType<T>, handle: EventHandler<T>, name?: string): this {
    const definition = defineHandler(eventType, handle, name);
    const existing = this.#registrations.get(eventType.id);
    if (existing) {
      throw new HandlerRegistrationError(
        `Two handlers for event type '${eventType.id}': '${existing.definition.name}' and '${definition.name}'. Register exactly one.`,
      );
    }
    this.#registrations.set(eventType.id, { definition: definition as HandlerDefinition, explicit: true });
    return this;
  }

  /**
   * Registers every handler definition found in the given modules (`import * as m`) or arrays. A type that
   * already has an explicit registration keeps it; the same definition twice is ignored; two different
   * scanned handlers for one type fail fast, naming both.
   */
  register(...sources: readonly unknown[]): this {
    for (const definition of sources.flatMap(collect)) {
      const existing = this.#registrations.get(definition.eventType.id);
      if (existing?.explicit || existing?.definition === definition) continue;
      if (existing) {
        throw new HandlerRegistrationError(
          `Two handlers for event type '${definition.eventType.id}' were found: '${existing.definition.name}' and '${definition.name}'. Register the intended one explicitly with subscriber.on(...) before scanning.`,
        );
      }
      this.#registrations.set(definition.eventType.id, { definition, explicit: false });
    }
    return this;
  }

  get eventTypeIds(): readonly string[] {
    return [...this.#registrations.keys()];
  }

  handlerFor(eventTypeId: string): HandlerDefinition | null {
    return this.#registrations.get(eventTypeId)?.definition ?? null;
  }

  /** Lets handlers publish follow-ups through `context.publish`. The endpoint host wires this. */
  usePublisher(publisher: Publisher): this {
    this.#publisher = publisher;
    return this;
  }

  /** The engine-facing adapter. */
  asContextHandler(): EventContextHandler {
    return { handle: (context) => this.#dispatch(context) };
  }

  async #dispatch(raw: MessageHandlingContext): Promise<void> {
    const { message } = raw;
    const eventTypeId = message.eventTypeId;
    if (!eventTypeId) throw new EventHandlerNotFoundError(null);
    const bodyType = message.content.eventContent?.eventTypeId;
    if (bodyType && bodyType !== eventTypeId) {
      throw new PermanentFailureError(
        `The message header says event type '${eventTypeId}' but its body carries '${bodyType}'.`,
      );
    }
    const registration = this.#registrations.get(eventTypeId);
    if (!registration) throw new EventHandlerNotFoundError(eventTypeId);
    const { definition } = registration;
    const payload = parsePayload(definition.eventType, message.content.eventContent?.eventJson);
    await definition.handle(payload, this.#context(raw, eventTypeId));
  }

  #context(raw: MessageHandlingContext, eventTypeId: string): HandlerContext {
    const { message } = raw;
    const lineage = {
      messageId: message.messageId,
      sessionId: message.sessionId,
      correlationId: message.correlationId,
      originatingMessageId: originatingOf(message),
    };
    const publisher = this.#publisher;
    return {
      ...lineage,
      eventId: message.eventId ?? '',
      eventTypeId,
      parentMessageId: message.parentMessageId,
      endpointId: raw.endpointId,
      retryCount: message.retryCount ?? 0,
      isReplay: raw.isReplay,
      raw,
      markPendingHandoff: (handoff) => raw.markPendingHandoff(handoff),
      publish: (type, payload, options) => {
        if (!publisher) {
          throw new TypeError(
            'context.publish needs a publisher: give the endpoint host one, or call subscriber.usePublisher().',
          );
        }
        return publisher.publishFromContext(type, payload, lineage, options);
      },
    };
  }
}

function collect(source: unknown): HandlerDefinition[] {
  if (isHandlerDefinition(source)) return [source];
  if (Array.isArray(source)) return source.flatMap(collect);
  if (typeof source === 'object' && source !== null) {
    return Object.values(source).filter(isHandlerDefinition);
  }
  throw new TypeError(
    'subscriber.register accepts handler definitions, arrays of them, or modules exporting them.',
  );
}

function parsePayload<T>(eventType: EventType<T>, eventJson: string | undefined): T {
  if (eventJson === undefined || eventJson === '') {
    throw new PermanentFailureError(`The '${eventType.id}' message carries no payload.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(eventJson);
  } catch (error) {
    throw new PermanentFailureError(
      `The '${eventType.id}' payload is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (parsed === null) throw new PermanentFailureError(`The '${eventType.id}' payload is null.`);
  const result = tryValidate(eventType, parsed);
  if (!result.valid) {
    const error = new EventValidationError(eventType.id, result.errors);
    throw new PermanentFailureError(error.message, { cause: error });
  }
  return result.value;
}

export function createSubscriber(): Subscriber {
  return new Subscriber();
}
