import type { MessageType } from '@nimbus/core';
import type { TrackedMessageFilter } from './entities/filters.js';

/** Case-insensitive prefix match used by every id-like search filter; an absent filter matches all. */
export function matchesPrefix(value: string | null, prefix: string | null | undefined): boolean {
  if (prefix == null || prefix === '') return true;
  return value?.toLowerCase().startsWith(prefix.toLowerCase()) ?? false;
}

export function matchesOneOf<T>(value: T | null, allowed: readonly T[] | null | undefined): boolean {
  if (allowed == null || allowed.length === 0) return true;
  return value !== null && allowed.includes(value);
}

export function matchesExact<T>(value: T | null, wanted: T | null | undefined): boolean {
  if (wanted == null || wanted === '') return true;
  return value === wanted;
}

export function withinRange(
  value: Date | null,
  from: Date | null | undefined,
  to: Date | null | undefined,
): boolean {
  if (from == null && to == null) return true;
  if (value === null) return false;
  const t = value.getTime();
  return (from == null || t >= from.getTime()) && (to == null || t <= to.getTime());
}

/** The fields of a stored message or resolver row that a `TrackedMessageFilter` looks at. */
export interface TrackedMessageFields {
  readonly endpointId: string;
  readonly eventId: string;
  readonly sessionId: string | null;
  readonly eventTypeId: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly messageType: MessageType;
  readonly enqueuedTimeUtc: Date;
}

export function matchesTrackedMessageFilter(
  message: TrackedMessageFields,
  filter: TrackedMessageFilter,
): boolean {
  return (
    matchesPrefix(message.endpointId, filter.endpointId) &&
    matchesPrefix(message.eventId, filter.eventId) &&
    matchesPrefix(message.sessionId, filter.sessionId) &&
    matchesOneOf(message.eventTypeId, filter.eventTypeId) &&
    matchesExact(message.from, filter.from) &&
    matchesExact(message.to, filter.to) &&
    matchesExact(message.messageType, filter.messageType) &&
    withinRange(message.enqueuedTimeUtc, filter.enqueuedAtFrom, filter.enqueuedAtTo)
  );
}

/** ASCII-only lower case: what every provider's `lower()` agrees on. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The audit `text` filter: a literal substring of any of the fields, ASCII letters case-insensitive. */
export function matchesAnyText(fields: readonly (string | null)[], text: string | null | undefined): boolean {
  if (text == null || text === '') return true;
  const needle = asciiLower(text);
  return fields.some((field) => field !== null && asciiLower(field).includes(needle));
}
