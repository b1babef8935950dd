import { Header } from '../envelope/headers.js';
import { MessageType } from '../envelope/message-type.js';
import { uuidv7 } from '../ids.js';
import { Addresses } from '../platform/reserved.js';
import type { Topology } from './topology.js';
import { TransportError, TransportErrorCode } from './transport-error.js';
import type { TransportMessage } from './transport-message.js';

/** One copy of a published message that lands on one input. */
export interface Delivery {
  readonly input: string;
  readonly message: TransportMessage;
}

export const RESOLVER_INPUT = Addresses.resolver;

export function replyInputOf(endpointId: string): string {
  return `${endpointId}-reply`;
}

function withHeaders(message: TransportMessage, changes: Record<string, string>): TransportMessage {
  return { ...message, headers: { ...message.headers, ...changes } };
}

/**
 * Where a message sent on `source`'s topic goes (design D3). Every transport applies this one rule:
 * - `To = Resolver`: to the Resolver input, `From` stamped with the source;
 * - `To = Retry | Continuation`: back to the source's own input (`To` = source, `From` = Retry/Continuation);
 * - `To = {X}-reply`: to that reply input only;
 * - `To = source` (replays, operator requests, handoff settlements, heartbeat probes): to the source's input
 *   and a copy to the Resolver;
 * - an original publish (`From` absent): one copy per route (source, EventTypeId) with `To` = consumer,
 *   `From` = source and a fresh `EventId`, each also copied to the Resolver.
 * Anything else would be delivered nowhere, so it is refused with a `TransportError` saying why: `EntityNotFound`
 * for a source that is neither an endpoint nor a platform address; `InvalidArgument` for no `To` header, an
 * event type nobody subscribes to, an original publish without a correlation id, or a copy that already has a
 * `From`.
 */
export function routeMessage(topology: Topology, source: string, message: TransportMessage): Delivery[] {
  const to = message.headers[Header.To];
  if (!to) throw unroutable(source, message, `it has no '${Header.To}' header`);
  if (!isKnownSource(topology, source)) {
    throw unroutable(
      source,
      message,
      `'${source}' is neither an endpoint of the topology nor a platform address`,
      TransportErrorCode.EntityNotFound,
    );
  }
  if (to === Addresses.resolver) {
    return [{ input: RESOLVER_INPUT, message: withHeaders(message, { [Header.From]: source }) }];
  }
  if (to === Addresses.retry || to === Addresses.continuation) {
    return [{ input: source, message: withHeaders(message, { [Header.To]: source, [Header.From]: to }) }];
  }
  if (to === replyInputOf(source)) {
    return [{ input: to, message }];
  }
  if (to === source) {
    return [
      { input: source, message },
      { input: RESOLVER_INPUT, message },
    ];
  }
  const from = message.headers[Header.From];
  if (from) {
    throw unroutable(
      source,
      message,
      `it already has ${Header.From} '${from}' and ${Header.To} '${to}' is not an address of '${source}'`,
    );
  }
  const eventTypeId = message.headers[Header.EventTypeId];
  if (!eventTypeId) throw unroutable(source, message, `an event needs an '${Header.EventTypeId}' header`);
  if (typeof message.correlationId !== 'string' || message.correlationId === '') {
    throw unroutable(
      source,
      message,
      'an event needs a correlation id (TransportMessage.correlationId is null)',
    );
  }
  const deliveries: Delivery[] = [];
  for (const route of topology.routes) {
    if (route.source !== source || route.eventTypeId !== eventTypeId) continue;
    const copy = withHeaders(message, {
      [Header.To]: route.target,
      [Header.From]: source,
      [Header.EventId]: uuidv7(),
      [Header.MessageType]: message.headers[Header.MessageType] ?? MessageType.EventRequest,
    });
    deliveries.push({ input: route.target, message: copy }, { input: RESOLVER_INPUT, message: copy });
  }
  if (deliveries.length === 0) {
    throw unroutable(source, message, `no endpoint subscribes to '${eventTypeId}' from '${source}'`);
  }
  return deliveries;
}

const PLATFORM_ADDRESSES: ReadonlySet<string> = new Set(Object.values(Addresses));

function isKnownSource(topology: Topology, source: string): boolean {
  return PLATFORM_ADDRESSES.has(source) || topology.endpoints.includes(source);
}

function unroutable(
  source: string,
  message: TransportMessage,
  why: string,
  code: TransportErrorCode = TransportErrorCode.InvalidArgument,
): TransportError {
  return new TransportError(
    code,
    `Message ${message.messageId} published on '${source}' cannot be routed: ${why}`,
  );
}
