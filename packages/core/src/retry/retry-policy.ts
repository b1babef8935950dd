import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
export type BackoffStrategy = 'fixed' | 'linear' | 'exponential';
export type JitterMode = 'none' | 'full' | 'bounded';

export interface RetryPolicyOptions {
  /** Retries after the first attempt; total attempts = 1 + maxRetries. */
  readonly maxRetries: number;
  readonly strategy?: BackoffStrategy;
  readonly baseDelayMs?: number;
  /** Upper bound applied after jitter. */
  readonly maxDelayMs?: number | null;
  readonly jitter?: JitterMode;
  /** For `bounded` jitter: the delay grows by at most this fraction. */
  readonly boundedJitterFactor?: number;
}

/** How often and how long to wait before a failed message is tried again. */
export class RetryPolicy {
  readonly maxRetries: number;
  readonly strategy: BackoffStrategy;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number | null;
  readonly jitter: JitterMode;
  readonly boundedJitterFactor: number;

  constructor(options: RetryPolicyOptions) {
    const { maxRetries } = options;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        `RetryPolicy.maxRetries must be a whole number >= 0, got ${String(maxRetries)}.`,
      );
    }
    this.maxRetries = maxRetries;
    this.strategy = options.strategy ?? 'fixed';
    this.baseDelayMs = nonNegative('baseDelayMs', options.baseDelayMs ?? 60_000);
    this.maxDelayMs =
      options.maxDelayMs === undefined || options.maxDelayMs === null
        ? null
        : nonNegative('maxDelayMs', options.maxDelayMs);
    this.jitter = options.jitter ?? 'none';
    this.boundedJitterFactor = nonNegative('boundedJitterFactor', options.boundedJitterFactor ?? 0.25);
  }

  /** Delay before retry number `attempt + 1` (attempt is 0-based). `random` returns values in [0, 1). */
  delayFor(attempt: number, random: () => number = Math.random): number {
    const base = this.#baseDelay(attempt);
    const withJitter = this.#jittered(base, random);
    return this.maxDelayMs !== null ? Math.min(withJitter, this.maxDelayMs) : withJitter;
  }

  #baseDelay(attempt: number): number {
    switch (this.strategy) {
      case 'fixed':
        return this.baseDelayMs;
      case 'linear':
        return this.baseDelayMs * (attempt + 1);
      case 'exponential':
        return this.baseDelayMs * 2 ** attempt;
    }
  }

  #jittered(delay: number, random: () => number): number {
    if (this.jitter === 'none') return delay;
    const factor = this.jitter === 'full' ? 1 : this.boundedJitterFactor;
    const span = delay * factor;
    const draw = Math.min(Math.max(random(), 0), 1);
    // Strictly below the span so `full` stays inside [d, 2d).
    const jitter = Math.min(Math.floor(span * draw), Math.max(0, Math.ceil(span) - 1));
    return delay + Math.max(0, jitter);
  }
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `RetryPolicy.${name} must be a finite number >= 0, got ${String(value)}.`,
    );
  }
  return value;
}
