import { randomUUID } from 'node:crypto';
import { SessionKeyError } from './errors.js';
import type { EventType } from './event-type.js';

/**
 * Chooses the session id of a publish, in this order: the explicit id, the event type's key function,
 * the event type's key property (which must exist on the payload), else a fresh random id.
 */
export function resolveSessionId<T>(
  eventType: EventType<T>,
  payload: T,
  explicitSessionId?: string | null,
): string {
  if (explicitSessionId !== undefined && explicitSessionId !== null && explicitSessionId !== '') {
    return explicitSessionId;
  }
  const source = eventType.sessionKey;
  if (source === null) return randomUUID();
  if (typeof source === 'function') {
    const key = source(payload);
    return key === null || key === undefined || key === '' ? randomUUID() : String(key);
  }
  const holder = payload as Record<string, unknown> | null;
  if (holder === null || typeof holder !== 'object' || !(source.property in holder)) {
    throw new SessionKeyError(
      `Event type '${eventType.id}' uses session key property '${source.property}', which the payload does not have.`,
    );
  }
  const value = holder[source.property];
  return value === null || value === undefined ? randomUUID() : String(value);
}
