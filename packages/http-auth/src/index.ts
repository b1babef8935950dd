export {
  AccessTokenCache,
  type AccessTokenCacheOptions,
  type CredentialSource,
  DEFAULT_REFRESH_MARGIN_MS,
  DEFAULT_REFRESH_RETRY_MS,
  type TokenClock,
  type TokenRefusal,
  TokenRequestError,
} from './access-token-cache.js';
export {
  type BearerTokenFetchOptions,
  bearerTokenFetch,
  createBearerTokenFetch,
  type FetchFunction,
} from './bearer-token-fetch.js';
export { claimsFromChallenge } from './claims-challenge.js';
export {
  BUSINESS_CENTRAL_SCOPE,
  dataverseScope,
  defaultScopeOf,
  financeAndOperationsScope,
} from './scopes.js';
