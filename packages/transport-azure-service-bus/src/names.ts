import { createHash } from 'node:crypto';
import { RESOLVER_INPUT, type Route } from '@nimbus/core';

// How the NimBus topology maps onto a Service Bus namespace (see docs/transport-azure-service-bus.md).

/** Application property that names the input a delivery is for; every subscription filters on it. */
export const INPUT_PROPERTY = 'NimBusInput';
/** Set on route copies: the route (source, event type) the copy travels on; its rule must exist. */
export const ROUTE_SOURCE_PROPERTY = 'NimBusRouteSource';
export const ROUTE_EVENT_PROPERTY = 'NimBusRouteEventType';
/** A parked message's permanent place in its session's line. */
export const PARKED_SEQUENCE_PROPERTY = 'NimBusParkedSequence';
export const PARKED_AT_PROPERTY = 'NimBusParkedAt';
export const DEAD_LETTERED_AT_PROPERTY = 'NimBusDeadLetteredAt';
/** Application properties that belong to the transport, not to the message's headers. */
export const TRANSPORT_PROPERTIES: ReadonlySet<string> = new Set([
  INPUT_PROPERTY,
  ROUTE_SOURCE_PROPERTY,
  ROUTE_EVENT_PROPERTY,
  PARKED_SEQUENCE_PROPERTY,
  PARKED_AT_PROPERTY,
  DEAD_LETTERED_AT_PROPERTY,
]);
/**
 * What the broker stamps on a message it dead-letters. NimBus envelopes use the same names for their own
 * headers (a dead-letter notice to the Resolver carries them), so they are dropped only from dead-lettered copies.
 */
export const BROKER_DEAD_LETTER_PROPERTIES: ReadonlySet<string> = new Set([
  'DeadLetterReason',
  'DeadLetterErrorDescription',
]);

export const REPLY_SUFFIX = '-reply';
export const PARKED_SUFFIX = '.parked';
export const DIRECT_RULE = 'direct';
export const ROUTE_RULE_PREFIX = 'route.';

/** The topic holding an input: the endpoint's own topic (its reply input lives there too). */
export function topicOf(input: string): string {
  return input.endsWith(REPLY_SUFFIX) ? input.slice(0, -REPLY_SUFFIX.length) : input;
}

export function inputsOf(endpoint: string): string[] {
  return endpoint === RESOLVER_INPUT ? [endpoint] : [endpoint, `${endpoint}${REPLY_SUFFIX}`];
}

export function parkedOf(input: string): string {
  return `${input}${PARKED_SUFFIX}`;
}

/** A route's rule name on the target's input subscription (rule names are limited to 50 characters). */
export function routeRuleName(route: Route): string {
  const hash = createHash('sha256').update(`${route.source}\u0000${route.eventTypeId}`).digest('hex');
  return `${ROUTE_RULE_PREFIX}${hash.slice(0, 32)}`;
}

/** SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
