import { Header } from '../envelope/headers.js';
import { MessageType } from '../envelope/message-type.js';
import { uuidv7 } from '../ids.js';
import { Addresses } from '../platform/reserved.js';
import type { Topology } from './topology.js';
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
 * Anything else matches no route and yields no delivery.
 */
export function routeMessage(topology: Topology, source: string, message: TransportMessage): Delivery[] {
  const to = message.headers[Header.To];
  if (to === Addresses.resolver) {
    return [{ input: RESOLVER_INPUT, message: withHeaders(message, { [Header.From]: source }) }];
  }
  if (to === Addresses.retry || to === Addresses.continuation) {
    return [{ input: source, message: withHeaders(message, { [Header.To]: source, [Header.From]: to }) }];
  }
  if (to !== undefined && to === replyInputOf(source)) {
    return [{ input: to, message }];
  }
  if (to === source) {
    return [
      { input: source, message },
      { input: RESOLVER_INPUT, message },
    ];
  }
  if (message.headers[Header.From]) return [];
  const eventTypeId = message.headers[Header.EventTypeId];
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
  return deliveries;
}
