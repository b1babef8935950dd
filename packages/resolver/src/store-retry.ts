import { type Clock, isRetryableError, type Logger } from '@nimbus/core';
import { classifyDriverError } from '@nimbus/sql';
import { describeError, retryAfterMsOf } from './store-errors.js';
import { MAX_THROTTLE_RETRIES, throttleDelayMs } from './throttle.js';

/** The store stayed unavailable through every documented attempt. */
export class StoreRetriesExhausted extends Error {
  override readonly name = 'StoreRetriesExhausted';
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(
      `The message store stayed unavailable through ${attempts} retries. Last error: ${describeError(lastError)}`,
    );
  }
}

/** The Resolver is stopping during a back-off: leave the message unsettled (it is redelivered in order). */
export class ResolverStopping extends Error {
  override readonly name = 'ResolverStopping';
}

export interface StoreRetryOptions {
  /** Attempts already made (a copy rescheduled by an older Resolver carries its count). */
  readonly firstAttempt: number;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly context: Record<string, unknown>;
  readonly onRetry: () => void;
  /** Keeps the session held during a back-off (renews its lock); called every `HOLD_RENEWAL_MS`. */
  readonly holdSession: () => Promise<unknown>;
}

/** How often the session lock is renewed while backing off (well inside every transport's lock duration). */
export const HOLD_RENEWAL_MS = 5_000;

/**
 * How soon a statement that gave up on a lock or statement timeout is tried again: the failed attempt already
 * waited that timeout, so the retry only yields briefly (a lock released meanwhile is taken at the next attempt).
 */
export const CONTENTION_RETRY_MS = 200;

/**
 * True for a store failure that is contention, not an outage: a lock or statement timeout (PostgreSQL 55P03,
 * 57014) or SQLITE_BUSY, anywhere in the error's `cause` chain (`classifyDriverError` reason `busy`).
 */
export function isStoreContention(error: unknown): boolean {
  return isRetryableError(error) && classifyDriverError(error).reason === 'busy';
}

/**
 * Runs `work`, retrying it in place on a retryable store failure (`isRetryable`) with back-off `min(5·2^n, 300)` s
 * (or the provider's longer retry-after). The caller holds the session meanwhile, so no later message of the
 * session can overtake this one. After `MAX_THROTTLE_RETRIES` retries it gives up with `StoreRetriesExhausted`;
 * any other error is rethrown at once. Contention (`isStoreContention`: the statement waited its lock or statement
 * timeout) is retried after `CONTENTION_RETRY_MS` and does not use up the outage retries: a lock held for a minute
 * delays the session, it never dead-letters a message, and the write goes through right after the lock is released.
 */
export async function withStoreRetries<T>(work: () => Promise<T>, options: StoreRetryOptions): Promise<T> {
  let retries = options.firstAttempt;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableError(error)) throw error;
      const contention = isStoreContention(error);
      if (!contention && retries >= MAX_THROTTLE_RETRIES) throw new StoreRetriesExhausted(retries, error);
      const delayMs = contention ? CONTENTION_RETRY_MS : throttleDelayMs(retries, retryAfterMsOf(error));
      options.logger.warn(
        { ...options.context, retry: retries + 1, delayMs, error: describeError(error), contention },
        contention
          ? 'Store busy (lock or statement timeout); retrying in place while holding the session'
          : 'Store unavailable; retrying in place while holding the session',
      );
      if (!contention) {
        retries += 1;
        options.onRetry();
      }
      for (let waited = 0; waited < delayMs; waited += HOLD_RENEWAL_MS) {
        await options.clock.sleep(Math.min(HOLD_RENEWAL_MS, delayMs - waited), options.signal);
        if (options.signal.aborted)
          throw new ResolverStopping('The Resolver stopped during a store back-off.');
        await options.holdSession();
      }
    }
  }
}
