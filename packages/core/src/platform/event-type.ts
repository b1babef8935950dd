import type { StandardSchemaV1 } from '@standard-schema/spec';
import { PlatformDefinitionError } from './errors.js';
import { HEARTBEAT_EVENT_TYPE_ID } from './reserved.js';

export type EventKind = 'event' | 'command';

/** How the session key of a payload is found when the publisher does not give one explicitly. */
export type SessionKeySource<T> =
  | { readonly property: keyof T & string }
  | ((payload: T) => string | null | undefined);

export interface EventType<T = unknown> {
  /** The wire `EventTypeId`. */
  readonly id: string;
  readonly kind: EventKind;
  readonly schema: StandardSchemaV1<unknown, T>;
  readonly description: string | null;
  readonly sessionKey: SessionKeySource<T> | null;
  /** An example payload, shown by the WebApp and used by docs. */
  readonly example: T | null;
}

export type EventPayload<E> = E extends EventType<infer T> ? T : never;

export interface EventTypeOptions<S extends StandardSchemaV1> {
  readonly schema: S;
  readonly description?: string;
  /** Either the name of a payload property, or a function that computes the key. */
  readonly sessionKey?:
    | (keyof StandardSchemaV1.InferOutput<S> & string)
    | ((payload: StandardSchemaV1.InferOutput<S>) => string | null | undefined);
  readonly example?: StandardSchemaV1.InferOutput<S>;
}

const EVENT_TYPE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,199}$/;

function makeEventType<S extends StandardSchemaV1>(
  kind: EventKind,
  id: string,
  options: EventTypeOptions<S>,
  allowReserved: boolean,
): EventType<StandardSchemaV1.InferOutput<S>> {
  if (typeof id !== 'string' || !EVENT_TYPE_ID_PATTERN.test(id)) {
    throw new PlatformDefinitionError(
      `Event type id '${String(id)}' is invalid: use a letter first, then letters, digits, '.', '_' or '-' (at most 200 characters).`,
    );
  }
  if (!allowReserved && id === HEARTBEAT_EVENT_TYPE_ID) {
    throw new PlatformDefinitionError(`Event type id '${id}' is reserved for the platform heartbeat.`);
  }
  if (!options?.schema || typeof options.schema['~standard']?.validate !== 'function') {
    throw new PlatformDefinitionError(
      `Event type '${id}' needs a Standard Schema (for example a zod schema).`,
    );
  }
  const key = options.sessionKey;
  return Object.freeze({
    id,
    kind,
    schema: options.schema as StandardSchemaV1<unknown, StandardSchemaV1.InferOutput<S>>,
    description: options.description ?? null,
    sessionKey: key === undefined ? null : typeof key === 'function' ? key : { property: key },
    example: options.example ?? null,
  });
}

/** Declares an event type: a past-tense fact any number of endpoints may consume. */
export function defineEvent<S extends StandardSchemaV1>(id: string, options: EventTypeOptions<S>) {
  return makeEventType('event', id, options, false);
}

/** Declares a command: an imperative event type that exactly one endpoint consumes. */
export function defineCommand<S extends StandardSchemaV1>(id: string, options: EventTypeOptions<S>) {
  return makeEventType('command', id, options, false);
}

/** @internal Used by the platform's own heartbeat definition. */
export function definePlatformEvent<S extends StandardSchemaV1>(id: string, options: EventTypeOptions<S>) {
  return makeEventType('event', id, options, true);
}
