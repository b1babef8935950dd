export {
  AccessTokenCache,
  type AccessTokenCacheOptions,
  DEFAULT_REFRESH_MARGIN_MS,
  type TokenClock,
  TokenRequestError,
} from './access-token-cache.js';
export {
  type BearerTokenFetchOptions,
  bearerTokenFetch,
  createBearerTokenFetch,
  type FetchFunction,
} from './bearer-token-fetch.js';
export {
  BUSINESS_CENTRAL_SCOPE,
  dataverseScope,
  defaultScopeOf,
  financeAndOperationsScope,
} from './scopes.js';
