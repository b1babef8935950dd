import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/core-auth';
import { RefusedTokens } from './refused-tokens.js';

/** What the cache reads the time from; `ManualClock` of `@nimbus/core` fits. */
export interface TokenClock {
  now(): number;
}

const systemClock: TokenClock = { now: () => Date.now() };

/** Refresh this long before expiry when the token carries no `refreshAfterTimestamp`. */
export const DEFAULT_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** After a failed refresh, a still-valid token is used this long before the credential is asked again. */
export const DEFAULT_REFRESH_RETRY_MS = 10 * 1000;
/** A token is not handed out in its last seconds: it could expire on the way to the API. */
const EXPIRY_SKEW_MS = 10 * 1000;

/**
 * A credential, or a function that makes one. With a function the cache can get a token from a fresh
 * request when the API refused one without a claims challenge: it makes a new credential, whose own
 * token cache is empty (credentials of `@azure/identity` keep the token they issued until it is due,
 * and offer no option to skip that cache except a claims challenge).
 */
export type CredentialSource = TokenCredential | (() => TokenCredential);

export interface AccessTokenCacheOptions {
  /** Time source for refresh decisions (default: the system clock). */
  readonly clock?: TokenClock;
  /** How long before `expiresOnTimestamp` to refresh when the token has no refresh time (default 5 min). */
  readonly refreshMarginMs?: number;
  /** After a failed refresh, how long a still-valid token is used before asking again (default 10 s). */
  readonly refreshRetryMs?: number;
  /** Passed to every `getToken` call (tenant id…). */
  readonly getTokenOptions?: GetTokenOptions;
}

/** What the API said when it refused a token (a 401). */
export interface TokenRefusal {
  /** The decoded `claims` of a claims challenge (`WWW-Authenticate: Bearer … claims="…"`), if any. */
  readonly claims?: string;
}

export class TokenRequestError extends Error {
  constructor(
    readonly scopes: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TokenRequestError';
  }
}

function checkedMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(`${name} must be a non-negative number of milliseconds, got ${String(value)}.`);
  }
  return value;
}

/**
 * One access token for one credential and set of scopes, shared by every caller.
 *
 * The token is reused until its refresh time: the token's `refreshAfterTimestamp` when it has one,
 * otherwise `refreshMarginMs` before it expires. Concurrent callers that find no usable token share
 * one `getToken` request. When a refresh fails while the old token is still valid, callers keep that
 * token (and the credential is asked again after `refreshRetryMs`); when there is no valid token, the
 * waiters are rejected and the next call asks again (nothing failed is cached). A token the API refused
 * (`refuse`) is never handed out again.
 */
export class AccessTokenCache {
  readonly #source: CredentialSource;
  #credential: TokenCredential;
  readonly #scopes: string[];
  readonly #clock: TokenClock;
  readonly #refreshMarginMs: number;
  readonly #refreshRetryMs: number;
  readonly #getTokenOptions: GetTokenOptions | undefined;
  readonly #refused = new RefusedTokens();
  #token: AccessToken | null = null;
  #inFlight: Promise<AccessToken> | null = null;
  #retryRefreshAt = 0;
  /** Set by a refusal: what the next token request has to do differently. */
  #next: { claims?: string; freshCredential: boolean } | null = null;

  constructor(
    source: CredentialSource,
    scopes: string | readonly string[],
    options: AccessTokenCacheOptions = {},
  ) {
    const list = typeof scopes === 'string' ? [scopes] : [...scopes];
    if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.trim() === '')) {
      throw new TypeError(
        'AccessTokenCache needs at least one non-empty scope, for example "https://contoso.crm.dynamics.com/.default".',
      );
    }
    this.#refreshMarginMs = checkedMs(
      'refreshMarginMs',
      options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS,
    );
    this.#refreshRetryMs = checkedMs('refreshRetryMs', options.refreshRetryMs ?? DEFAULT_REFRESH_RETRY_MS);
    this.#source = source;
    this.#credential = typeof source === 'function' ? source() : source;
    this.#scopes = list;
    this.#clock = options.clock ?? systemClock;
    this.#getTokenOptions = options.getTokenOptions;
  }

  get scopes(): readonly string[] {
    return this.#scopes;
  }

  /** A token that is not due for refresh, fetching one when needed. */
  async getToken(): Promise<AccessToken> {
    const cached = this.#token;
    const now = this.#clock.now();
    if (cached !== null && (now < this.#refreshAt(cached) || now < this.#retryRefreshAt)) return cached;
    this.#inFlight ??= this.#refresh(cached);
    return this.#inFlight;
  }

  /** The `Authorization` header value: `Bearer <token>`. */
  async authorizationHeader(): Promise<string> {
    return `Bearer ${(await this.getToken()).token}`;
  }

  /** Forgets the cached token, so the next call asks the credential again. */
  invalidate(): void {
    this.#token = null;
    this.#retryRefreshAt = 0;
  }

  /**
   * The API refused `token` (it answered 401). The token is never handed out again. With a claims
   * challenge the next request passes the claims to the credential (which then skips its own cache);
   * without one the next request goes to a new credential when the cache was given a function that
   * makes one. A refusal of an older token than the cached one changes nothing.
   */
  refuse(token: string, refusal: TokenRefusal = {}): void {
    const known = this.#refused.has(token);
    this.#refused.add(token);
    if (this.#token !== null && this.#token.token !== token) return;
    this.invalidate();
    if (known && refusal.claims === undefined) return;
    this.#next = { claims: refusal.claims, freshCredential: refusal.claims === undefined };
  }

  async #refresh(previous: AccessToken | null): Promise<AccessToken> {
    try {
      return await this.#request();
    } catch (error) {
      const now = this.#clock.now();
      if (
        previous !== null &&
        this.#token === previous &&
        now < previous.expiresOnTimestamp - EXPIRY_SKEW_MS
      ) {
        // The old token is still valid: keep using it, and ask again a little later (never past expiry).
        this.#retryRefreshAt = Math.min(
          now + this.#refreshRetryMs,
          previous.expiresOnTimestamp - EXPIRY_SKEW_MS,
        );
        return previous;
      }
      throw error;
    } finally {
      this.#inFlight = null;
    }
  }

  async #request(): Promise<AccessToken> {
    const next = this.#next;
    if (next?.freshCredential && typeof this.#source === 'function') this.#credential = this.#source();
    const options =
      next?.claims === undefined ? this.#getTokenOptions : { ...this.#getTokenOptions, claims: next.claims };
    const token = await this.#ask(options);
    if (this.#refused.has(token.token)) {
      throw new TokenRequestError(
        this.#scopes,
        `The credential returned the token the API refused for ${this.#scopes.join(' ')} again (it answered from its ` +
          'own cache). Give AccessTokenCache a function that makes the credential, so it can ask a new one.',
      );
    }
    this.#next = null;
    this.#token = token;
    this.#retryRefreshAt = 0;
    return token;
  }

  async #ask(options: GetTokenOptions | undefined): Promise<AccessToken> {
    let token: AccessToken | null;
    try {
      token = await this.#credential.getToken(this.#scopes, options);
    } catch (error) {
      throw new TokenRequestError(
        this.#scopes,
        `Could not get an access token for ${this.#scopes.join(' ')}: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    }
    if (token === null || typeof token.token !== 'string' || token.token === '') {
      throw new TokenRequestError(
        this.#scopes,
        `The credential returned no access token for ${this.#scopes.join(' ')}.`,
      );
    }
    return token;
  }

  #refreshAt(token: AccessToken): number {
    const byMargin = token.expiresOnTimestamp - this.#refreshMarginMs;
    const hinted = token.refreshAfterTimestamp;
    return hinted !== undefined && hinted < token.expiresOnTimestamp ? hinted : byMargin;
  }
}
