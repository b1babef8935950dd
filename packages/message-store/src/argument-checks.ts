import { InvalidStoreArgumentError } from './errors.js';
import type { StatusWriteKey } from './normalize.js';
import { assertValidStoreEndpointId } from './reserved-endpoint-ids.js';

export function requireNonEmptyString(name: string, value: string | null | undefined): void {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidStoreArgumentError(name, 'must be a non-empty string');
  }
}

/** The key of a status write: a valid, unreserved endpoint id, an event id, and a session id ("" for none). */
export function assertValidStatusWriteKey(key: StatusWriteKey): void {
  assertValidStoreEndpointId(key.endpointId);
  requireNonEmptyString('eventId', key.eventId);
  if (typeof key.sessionId !== 'string') {
    throw new InvalidStoreArgumentError('sessionId', 'must be a string ("" for no session)');
  }
}
