import { PlatformDefinitionError } from './errors.js';
import type { EventType } from './event-type.js';
import { RESERVED_ENDPOINT_IDS } from './reserved.js';

export interface Endpoint {
  /** The endpoint id: its input address and the name operators see. */
  readonly id: string;
  readonly description: string | null;
  /** The business system the endpoint belongs to (informational). */
  readonly system: string | null;
  readonly produces: readonly EventType[];
  readonly consumes: readonly EventType[];
  /** Whether the platform heartbeat probes this endpoint (default true). */
  readonly heartbeat: boolean;
}

export interface EndpointOptions {
  readonly description?: string;
  readonly system?: string;
  // biome-ignore lint/suspicious/noExplicitAny: event types of any payload are accepted
  readonly produces?: readonly EventType<any>[];
  // biome-ignore lint/suspicious/noExplicitAny: event types of any payload are accepted
  readonly consumes?: readonly EventType<any>[];
  readonly heartbeat?: boolean;
}

const ENDPOINT_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

function uniqueList(endpointId: string, listName: string, types: readonly EventType[]): readonly EventType[] {
  const seen = new Set<string>();
  for (const type of types) {
    if (seen.has(type.id)) {
      throw new PlatformDefinitionError(
        `Endpoint '${endpointId}' declares that it ${listName} '${type.id}' twice.`,
      );
    }
    seen.add(type.id);
  }
  return Object.freeze([...types]);
}

/** Declares an endpoint with the event types it produces and consumes. */
export function defineEndpoint(id: string, options: EndpointOptions = {}): Endpoint {
  if (typeof id !== 'string' || !ENDPOINT_ID_PATTERN.test(id)) {
    throw new PlatformDefinitionError(
      `Endpoint id '${String(id)}' is invalid: use a letter first, then letters, digits, '.', '_' or '-' (at most 100 characters).`,
    );
  }
  if (RESERVED_ENDPOINT_IDS.has(id)) {
    throw new PlatformDefinitionError(`Endpoint id '${id}' is reserved by NimBus.`);
  }
  return Object.freeze({
    id,
    description: options.description ?? null,
    system: options.system ?? null,
    produces: uniqueList(id, 'produces', options.produces ?? []),
    consumes: uniqueList(id, 'consumes', options.consumes ?? []),
    heartbeat: options.heartbeat ?? true,
  });
}
