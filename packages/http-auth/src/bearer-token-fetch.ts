import {
  AccessTokenCache,
  type AccessTokenCacheOptions,
  type CredentialSource,
} from './access-token-cache.js';
import { claimsFromChallenge } from './claims-challenge.js';

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface BearerTokenFetchOptions {
  /** The fetch to wrap (default: the global `fetch`). */
  readonly fetch?: FetchFunction;
}

/**
 * Wraps `fetch` so every request carries `Authorization: Bearer <token>` from the shared cache.
 * A 401 answer marks the token it carried as refused (`AccessTokenCache.refuse`, with the claims of a
 * claims challenge when the answer holds one), so the next request carries a fresh token and never the
 * refused one; the 401 itself is returned to the caller unchanged (a request body cannot always be sent
 * twice, so nothing is retried here; the NimBus retry rules decide).
 */
export function bearerTokenFetch(
  cache: AccessTokenCache,
  options: BearerTokenFetchOptions = {},
): FetchFunction {
  const inner = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const { token } = await cache.getToken();
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('authorization', `Bearer ${token}`);
    const response = await inner(input, { ...init, headers });
    if (response.status === 401) {
      cache.refuse(token, { claims: claimsFromChallenge(response.headers.get('www-authenticate')) });
    }
    return response;
  };
}

/** Shorthand: a cache for the credential and scopes, and a fetch that uses it. */
export function createBearerTokenFetch(
  credential: CredentialSource,
  scopes: string | readonly string[],
  options: BearerTokenFetchOptions & AccessTokenCacheOptions = {},
): FetchFunction {
  return bearerTokenFetch(new AccessTokenCache(credential, scopes, options), options);
}
