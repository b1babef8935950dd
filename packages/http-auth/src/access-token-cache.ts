import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/core-auth';

/** What the cache reads the time from; `ManualClock` of `@nimbus/core` fits. */
export interface TokenClock {
  now(): number;
}

const systemClock: TokenClock = { now: () => Date.now() };

/** Refresh this long before expiry when the token carries no `refreshAfterTimestamp`. */
export const DEFAULT_REFRESH_MARGIN_MS = 5 * 60 * 1000;

export interface AccessTokenCacheOptions {
  /** Time source for refresh decisions (default: the system clock). */
  readonly clock?: TokenClock;
  /** How long before `expiresOnTimestamp` to refresh when the token has no refresh time (default 5 min). */
  readonly refreshMarginMs?: number;
  /** Passed to every `getToken` call (tenant id, claims…). */
  readonly getTokenOptions?: GetTokenOptions;
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

/**
 * One access token for one credential and set of scopes, shared by every caller.
 *
 * The token is reused until its refresh time: the token's `refreshAfterTimestamp` when it has one,
 * otherwise `refreshMarginMs` before it expires. Concurrent callers that find no usable token share
 * one `getToken` request; when that request fails all of them are rejected and the next call asks
 * again (nothing failed is cached).
 */
export class AccessTokenCache {
  readonly #credential: TokenCredential;
  readonly #scopes: string[];
  readonly #clock: TokenClock;
  readonly #refreshMarginMs: number;
  readonly #getTokenOptions: GetTokenOptions | undefined;
  #token: AccessToken | null = null;
  #inFlight: Promise<AccessToken> | null = null;

  constructor(
    credential: TokenCredential,
    scopes: string | readonly string[],
    options: AccessTokenCacheOptions = {},
  ) {
    const list = typeof scopes === 'string' ? [scopes] : [...scopes];
    if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.trim() === '')) {
      throw new TypeError(
        'AccessTokenCache needs at least one non-empty scope, for example "https://contoso.crm.dynamics.com/.default".',
      );
    }
    const margin = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    if (!Number.isFinite(margin) || margin < 0) {
      throw new TypeError(
        `refreshMarginMs must be a non-negative number of milliseconds, got ${String(margin)}.`,
      );
    }
    this.#credential = credential;
    this.#scopes = list;
    this.#clock = options.clock ?? systemClock;
    this.#refreshMarginMs = margin;
    this.#getTokenOptions = options.getTokenOptions;
  }

  get scopes(): readonly string[] {
    return this.#scopes;
  }

  /** A token that is not due for refresh, fetching one when needed. */
  async getToken(): Promise<AccessToken> {
    const cached = this.#token;
    if (cached !== null && this.#clock.now() < this.#refreshAt(cached)) return cached;
    this.#inFlight ??= this.#request();
    return this.#inFlight;
  }

  /** The `Authorization` header value: `Bearer <token>`. */
  async authorizationHeader(): Promise<string> {
    return `Bearer ${(await this.getToken()).token}`;
  }

  /** Forgets the cached token (for example after the API answered 401), so the next call fetches a new one. */
  invalidate(): void {
    this.#token = null;
  }

  async #request(): Promise<AccessToken> {
    try {
      const token = await this.#credential.getToken(this.#scopes, this.#getTokenOptions);
      if (token === null || typeof token.token !== 'string' || token.token === '') {
        throw new TokenRequestError(
          this.#scopes,
          `The credential returned no access token for ${this.#scopes.join(' ')}.`,
        );
      }
      this.#token = token;
      return token;
    } catch (error) {
      if (error instanceof TokenRequestError) throw error;
      throw new TokenRequestError(
        this.#scopes,
        `Could not get an access token for ${this.#scopes.join(' ')}: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    } finally {
      this.#inFlight = null;
    }
  }

  #refreshAt(token: AccessToken): number {
    const byMargin = token.expiresOnTimestamp - this.#refreshMarginMs;
    const hinted = token.refreshAfterTimestamp;
    return hinted !== undefined && hinted < token.expiresOnTimestamp ? hinted : byMargin;
  }
}
