import { forbidden } from '../http/http-error.js';
import type { IdentityStore } from '../identity/identity-store.js';
import { apiTokenKey, type StreamRegistry } from '../live/stream-registry.js';
import type { Principal } from './principal.js';

/**
 * Credentials are changed from a signed-in session only: an API token (made for a script, capped, maybe
 * leaked) cannot mint or revoke tokens, change its owner's password or reset anyone's. The refusal is a 403,
 * which the route layer audits.
 */
export function requireSession(principal: Principal | null, what: string): Principal {
  if (principal?.credential.kind !== 'session') {
    throw forbidden(`${what} needs a signed-in session, not an API token.`);
  }
  return principal;
}

/** Revokes every active API token of the user and ends their live streams; returns how many were active. */
export async function revokeApiTokensOf(
  identityStore: IdentityStore,
  streams: StreamRegistry,
  userId: string,
  at: Date,
): Promise<number> {
  let revoked = 0;
  for (const token of await identityStore.listApiTokens(userId)) {
    if (token.revokedAt !== null) continue;
    if (await identityStore.revokeApiToken(userId, token.id, at)) revoked++;
    streams.closeCredential(apiTokenKey(token.id));
  }
  return revoked;
}
