import type { TokenCredential } from '@azure/core-auth';
import { AccessTokenCache, type AccessTokenCacheOptions } from './access-token-cache.js';

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface BearerTokenFetchOptions {
  /** The fetch to wrap (default: the global `fetch`). */
  readonly fetch?: FetchFunction;
}

/**
 * Wraps `fetch` so every request carries `Authorization: Bearer <token>` from the shared cache.
 * A 401 answer drops the cached token, so the next request fetches a fresh one; the 401 itself is
 * returned to the caller unchanged (a request body cannot always be sent twice, so nothing is
 * retried here; the NimBus retry rules decide).
 */
export function bearerTokenFetch(
  cache: AccessTokenCache,
  options: BearerTokenFetchOptions = {},
): FetchFunction {
  const inner = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const authorization = await cache.authorizationHeader();
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('authorization', authorization);
    const response = await inner(input, { ...init, headers });
    if (response.status === 401) cache.invalidate();
    return response;
  };
}

/** Shorthand: a cache for the credential and scopes, and a fetch that uses it. */
export function createBearerTokenFetch(
  credential: TokenCredential,
  scopes: string | readonly string[],
  options: BearerTokenFetchOptions & AccessTokenCacheOptions = {},
): FetchFunction {
  return bearerTokenFetch(new AccessTokenCache(credential, scopes, options), options);
}
