import { type Clock, isRetryableError, type Logger } from '@nimbus/core';
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
 * Runs `work`, retrying it in place on a retryable store failure (`isRetryable`) with back-off `min(5·2^n, 300)` s
 * (or the provider's longer retry-after). The caller holds the session meanwhile, so no later message of the
 * session can overtake this one. After `MAX_THROTTLE_RETRIES` retries it gives up with `StoreRetriesExhausted`;
 * any other error is rethrown at once.
 */
export async function withStoreRetries<T>(work: () => Promise<T>, options: StoreRetryOptions): Promise<T> {
  for (let retries = options.firstAttempt; ; retries++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableError(error)) throw error;
      if (retries >= MAX_THROTTLE_RETRIES) throw new StoreRetriesExhausted(retries, error);
      const delayMs = throttleDelayMs(retries, retryAfterMsOf(error));
      options.logger.warn(
        { ...options.context, retry: retries + 1, delayMs, error: describeError(error) },
        'Store unavailable; retrying in place while holding the session',
      );
      options.onRetry();
      for (let waited = 0; waited < delayMs; waited += HOLD_RENEWAL_MS) {
        await options.clock.sleep(Math.min(HOLD_RENEWAL_MS, delayMs - waited), options.signal);
        if (options.signal.aborted)
          throw new ResolverStopping('The Resolver stopped during a store back-off.');
        await options.holdSession();
      }
    }
  }
}
