import { setTimeout as sleepFor } from 'node:timers/promises';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';

export interface BackoffOptions {
  /** First delay; default 100 ms. */
  readonly initialMs?: number;
  /** Ceiling; default 5 000 ms. */
  readonly maxMs?: number;
  /** Growth per attempt; default 2. */
  readonly factor?: number;
  /** Fraction of each delay drawn at random (0–1) so many processes do not retry in lock-step; default 0.2. */
  readonly jitter?: number;
}

/**
 * The back-off of everything that waits for its database to come back: the LISTEN connections, and a process
 * started while the database is down (`nimbus resolver`, `nimbus webapp`, `nimbus dev`): 100 ms doubling to 5 s.
 */
export const RECONNECT_BACKOFF: BackoffOptions = Object.freeze({ initialMs: 100, maxMs: 5000 });

/** Exponential back-off with jitter: `next()` gives the delay before the next attempt, `reset()` after success. */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  #attempt = 0;

  constructor(options: BackoffOptions = {}) {
    this.#initialMs = positive('initialMs', options.initialMs ?? 100);
    this.#maxMs = positive('maxMs', options.maxMs ?? 5000);
    this.#factor = positive('factor', options.factor ?? 2);
    this.#jitter = options.jitter ?? 0.2;
    if (!(this.#jitter >= 0 && this.#jitter <= 1)) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        `Backoff option jitter must be between 0 and 1, got ${String(options.jitter)}`,
      );
    }
  }

  /** Attempts since the last reset. */
  get attempts(): number {
    return this.#attempt;
  }

  next(): number {
    const base = Math.min(this.#maxMs, this.#initialMs * this.#factor ** Math.min(this.#attempt, 30));
    this.#attempt += 1;
    return Math.round(base * (1 - this.#jitter * Math.random()));
  }

  reset(): void {
    this.#attempt = 0;
  }

  /** Waits `next()`; resolves early (without throwing) when `signal` aborts. */
  async wait(signal?: AbortSignal): Promise<void> {
    await sleep(this.next(), signal);
  }
}

/** A sleep that ends quietly when `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  try {
    await sleepFor(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Backoff option ${name} must be a positive number, got ${String(value)}`,
    );
  }
  return value;
}
