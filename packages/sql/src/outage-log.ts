import { describeDriverError } from './driver-errors.js';

/** The part of a logger an outage report needs (structurally the NimBus `Logger`). */
export interface OutageLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * Logs a database outage once when it begins and once when it ends (with its length and the attempts made),
 * instead of once per retry: `failed()` on every failed attempt, `succeeded()` after every success.
 */
export class OutageLog {
  #since: number | null = null;
  #attempts = 0;
  #lastError: unknown = null;

  constructor(
    private readonly logger: OutageLogger,
    /** What is retrying, e.g. `SQL transport LISTEN connection` or `Resolver store writes`. */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  get inOutage(): boolean {
    return this.#since !== null;
  }

  /** Since when the current outage lasts, or null. */
  get since(): number | null {
    return this.#since;
  }

  get lastError(): unknown {
    return this.#lastError;
  }

  failed(error: unknown): void {
    this.#attempts += 1;
    this.#lastError = error;
    if (this.#since !== null) return;
    this.#since = this.now();
    this.logger.warn(
      { error, reason: describeDriverError(error) },
      `${this.what}: database unavailable; retrying with back-off (logged again when it recovers)`,
    );
  }

  succeeded(): void {
    if (this.#since === null) return;
    const downMs = this.now() - this.#since;
    const attempts = this.#attempts;
    this.#since = null;
    this.#attempts = 0;
    this.#lastError = null;
    this.logger.info(
      { downMs, attempts },
      `${this.what}: database reachable again after ${downMs} ms (${attempts} failed attempt(s))`,
    );
  }
}
