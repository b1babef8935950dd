import {
  type EventContextHandler,
  EventHandlerNotFoundError,
  type EventType,
  EventValidationError,
  type MessageHandlingContext,
  NimBusError,
  NimBusErrorCode,
  originatingOf,
  PermanentFailureError,
  tryValidate,
} from '@nimbus/core';
import type { HandlerContext } from './handler-context.js';
import { readEventJson } from './payload.js';
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
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'defineHandler needs an event type.');
  if (typeof handle !== 'function')
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `defineHandler('${eventType.id}') needs a function.`,
    );
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

/**
 * A handler for a class-less event type, keyed by its string id: it receives the payload as raw JSON text
 * (already checked to be present, well-formed, not `null` and at most 32 levels deep) and parses what it needs.
 */
export type DynamicEventHandler = (eventJson: string, context: HandlerContext) => Promise<void> | void;

/** Builds a dynamic (or fallback) handler; use it when the handler needs wiring or keeps state. */
export interface DynamicHandlerFactory {
  readonly create: () => DynamicEventHandler;
  /**
   * `singleton` (default): built once, on the first message, and reused for every later one, so it may keep
   * state; a failed build is tried again on the next message. `perMessage`: built fresh for every message.
   */
  readonly lifetime?: 'singleton' | 'perMessage';
}

interface TypedRegistration {
  readonly kind: 'typed';
  readonly definition: HandlerDefinition;
  readonly explicit: boolean;
  readonly name: string;
}

interface DynamicRegistration {
  readonly kind: 'dynamic';
  readonly name: string;
  readonly resolve: () => DynamicEventHandler;
}

type Registration = TypedRegistration | DynamicRegistration;

/** Raised at registration time when two different handlers claim one event type. */
export class HandlerRegistrationError extends NimBusError<typeof NimBusErrorCode.HandlerRegistration> {
  override readonly name = 'HandlerRegistrationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.HandlerRegistration, message, options);
  }
}

function describeRegistration(registration: Registration): string {
  return `${registration.kind} handler '${registration.name}'`;
}

function conflict(
  eventTypeId: string,
  existing: Registration,
  added: Registration,
): HandlerRegistrationError {
  return new HandlerRegistrationError(
    `Two handlers for event type '${eventTypeId}': ${describeRegistration(existing)} and ${describeRegistration(added)}. Register exactly one.`,
  );
}

function dynamicRegistration(
  what: string,
  handler: DynamicEventHandler | DynamicHandlerFactory,
  name: string | undefined,
): DynamicRegistration {
  if (typeof handler === 'function') {
    return { kind: 'dynamic', name: name || handler.name || 'anonymous handler', resolve: () => handler };
  }
  if (typeof handler !== 'object' || handler === null || typeof handler.create !== 'function') {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${what} needs a handler function or a factory { create: () => handler }.`,
    );
  }
  const lifetime = handler.lifetime ?? 'singleton';
  if (lifetime !== 'singleton' && lifetime !== 'perMessage') {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${what}: lifetime must be 'singleton' or 'perMessage', not '${String(lifetime)}'.`,
    );
  }
  const build = (): DynamicEventHandler => {
    const built = handler.create();
    if (typeof built !== 'function')
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `The factory of ${what} did not return a function.`,
      );
    return built;
  };
  let instance: DynamicEventHandler | null = null;
  return {
    kind: 'dynamic',
    name: name || handler.create.name || 'handler factory',
    resolve:
      lifetime === 'perMessage'
        ? build
        : () => {
            instance ??= build();
            return instance;
          },
  };
}

/**
 * Handlers per event type: typed ones (payload parsed and validated against the type's schema before the
 * handler runs) and dynamic ones keyed by a string id (payload given as raw JSON), plus an optional fallback
 * for ids nothing else handles. A payload that is missing, not JSON, `null`, too deep, does not match the
 * schema, or names another type than the message header is a permanent failure (dead-lettered, never
 * retried) and no handler runs.
 */
export class Subscriber {
  readonly #registrations = new Map<string, Registration>();
  #fallback: DynamicRegistration | null = null;
  #publisher: Publisher | null = null;
  #endpointId: string | null = null;

  /** Registers the handler for one event type; the payload type is inferred from the event type. */
  on<T>(eventType: EventType<T>, handle: EventHandler<T>, name?: string): this {
    const definition = defineHandler(eventType, handle, name);
    const added: TypedRegistration = {
      kind: 'typed',
      definition: definition as HandlerDefinition,
      explicit: true,
      name: definition.name,
    };
    const existing = this.#registrations.get(eventType.id);
    if (existing) throw conflict(eventType.id, existing, added);
    this.#registrations.set(eventType.id, added);
    return this;
  }

  /**
   * Registers a handler for a class-less event type, keyed by its exact wire id (case-sensitive). The handler
   * gets the payload as raw JSON. Pass a function, or a {@link DynamicHandlerFactory}.
   */
  onDynamic(eventTypeId: string, handler: DynamicEventHandler | DynamicHandlerFactory, name?: string): this {
    if (typeof eventTypeId !== 'string' || eventTypeId.trim() === '') {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `onDynamic needs a non-blank event type id, got '${String(eventTypeId)}'.`,
      );
    }
    const added = dynamicRegistration(`onDynamic('${eventTypeId}')`, handler, name);
    const existing = this.#registrations.get(eventTypeId);
    if (existing) throw conflict(eventTypeId, existing, added);
    this.#registrations.set(eventTypeId, added);
    return this;
  }

  /**
   * Registers the handler for every event type id that has no handler of its own (typed or dynamic); it gets
   * the payload as raw JSON and `context.eventTypeId` tells which type arrived. At most one per subscriber.
   */
  onFallback(handler: DynamicEventHandler | DynamicHandlerFactory, name?: string): this {
    const added = dynamicRegistration('onFallback', handler, name);
    if (this.#fallback) {
      throw new HandlerRegistrationError(
        `Two fallback handlers: '${this.#fallback.name}' and '${added.name}'. Register exactly one.`,
      );
    }
    this.#fallback = added;
    return this;
  }

  /**
   * Registers every handler definition found in the given modules (`import * as m`) or arrays. A type that
   * already has an explicit registration keeps it; the same definition twice is ignored; two different
   * scanned handlers for one type, or a scanned handler for a dynamic id, fail fast, naming both.
   */
  register(...sources: readonly unknown[]): this {
    for (const definition of sources.flatMap(collect)) {
      const id = definition.eventType.id;
      const existing = this.#registrations.get(id);
      if (existing?.kind === 'typed' && (existing.explicit || existing.definition === definition)) continue;
      const added: TypedRegistration = { kind: 'typed', definition, explicit: false, name: definition.name };
      if (existing?.kind === 'typed') {
        throw new HandlerRegistrationError(
          `Two handlers for event type '${id}' were found: '${existing.definition.name}' and '${definition.name}'. Register the intended one explicitly with subscriber.on(...) before scanning.`,
        );
      }
      if (existing) throw conflict(id, existing, added);
      this.#registrations.set(id, added);
    }
    return this;
  }

  /** Ids with a typed handler (these must be declared as consumed by the endpoint). */
  get eventTypeIds(): readonly string[] {
    return [...this.#registrations].filter(([, r]) => r.kind === 'typed').map(([id]) => id);
  }

  /** Ids with a dynamic (class-less) handler. */
  get dynamicEventTypeIds(): readonly string[] {
    return [...this.#registrations].filter(([, r]) => r.kind === 'dynamic').map(([id]) => id);
  }

  get hasFallback(): boolean {
    return this.#fallback !== null;
  }

  handlerFor(eventTypeId: string): HandlerDefinition | null {
    const registration = this.#registrations.get(eventTypeId);
    return registration?.kind === 'typed' ? registration.definition : null;
  }

  /** The endpoint this subscriber serves, once a host (or test bus) runs it. */
  get endpointId(): string | null {
    return this.#endpointId;
  }

  /**
   * Binds the subscriber to the endpoint that runs it (the endpoint host and the test bus call this). Its
   * handlers publish as that endpoint, so serving a second endpoint fails fast; binding the same endpoint
   * again (a restarted host) is fine.
   */
  bindEndpoint(endpointId: string): this {
    if (typeof endpointId !== 'string' || endpointId.trim() === '') {
      throw new NimBusError(NimBusErrorCode.InvalidArgument, 'bindEndpoint needs a non-blank endpoint id.');
    }
    if (this.#endpointId !== null && this.#endpointId !== endpointId) {
      throw new HandlerRegistrationError(
        `This subscriber already serves endpoint '${this.#endpointId}' and cannot also serve '${endpointId}': create one subscriber per endpoint.`,
      );
    }
    this.#endpointId = endpointId;
    return this;
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
    // The header is authoritative: a type named only in the body never selects a handler.
    if (!eventTypeId) throw new EventHandlerNotFoundError(null);
    const bodyType = message.content.eventContent?.eventTypeId;
    if (bodyType && bodyType !== eventTypeId) {
      throw new PermanentFailureError(
        `The message header says event type '${eventTypeId}' but its body carries '${bodyType}'.`,
      );
    }
    const registration = this.#registrations.get(eventTypeId) ?? this.#fallback;
    if (!registration) throw new EventHandlerNotFoundError(eventTypeId);
    const eventJson = message.content.eventContent?.eventJson;
    const parsed = readEventJson(eventTypeId, eventJson);
    const context = this.#context(raw, eventTypeId);
    if (registration.kind === 'dynamic') {
      await registration.resolve()(eventJson as string, context);
      return;
    }
    const { definition } = registration;
    await definition.handle(validatePayload(definition.eventType, parsed), context);
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
      signal: raw.signal,
      raw,
      markPendingHandoff: (handoff) => raw.markPendingHandoff(handoff),
      publish: (type, payload, options) => {
        if (!publisher) {
          throw new NimBusError(
            NimBusErrorCode.InvalidArgument,
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
  throw new NimBusError(
    NimBusErrorCode.InvalidArgument,
    'subscriber.register accepts handler definitions, arrays of them, or modules exporting them.',
  );
}

function validatePayload<T>(eventType: EventType<T>, parsed: unknown): T {
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

/**
 * A dynamic handler that hands every message off to external work (an agent, a person) instead of handling
 * it: the engine answers with a `PendingHandoffResponse` and the session waits for the HandoffClient.
 */
export function pendingHandoffHandler(reason = 'Awaiting agent pickup'): DynamicEventHandler {
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'pendingHandoffHandler needs a non-blank reason.');
  }
  return (_eventJson, context) => context.markPendingHandoff({ reason });
}
