import { InvalidStoreArgumentError, ReservedEndpointIdError } from './errors.js';

/** Names of the store's own collections; an endpoint may not use them. Compared case-sensitively. */
export const RESERVED_STORE_ENDPOINT_IDS: ReadonlySet<string> = new Set([
  'subscriptions',
  'messages',
  'audits',
  'eventschemas',
  'eventreports',
  'accesscontrol',
  'Metadata',
  'inbox',
]);

export function isReservedStoreEndpointId(endpointId: string): boolean {
  return RESERVED_STORE_ENDPOINT_IDS.has(endpointId);
}

/** Throws for an empty or reserved endpoint id. `Messages` (capital M) is allowed. */
export function assertValidStoreEndpointId(endpointId: string): void {
  if (typeof endpointId !== 'string' || endpointId.length === 0) {
    throw new InvalidStoreArgumentError('endpointId', 'must be a non-empty string');
  }
  if (RESERVED_STORE_ENDPOINT_IDS.has(endpointId)) {
    throw new ReservedEndpointIdError(endpointId, RESERVED_STORE_ENDPOINT_IDS);
  }
}
