import { type Clock, systemClock } from '../clock.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { consoleLogger, type Logger } from '../logger.js';
import { countMetric } from '../telemetry/metrics.js';
import { MetricName, TelemetryAttribute, TelemetryScope } from '../telemetry/names.js';
import {
  type CircuitBreakerOptions,
  type ResolvedCircuitBreakerOptions,
  resolveCircuitBreakerOptions,
} from './circuit-breaker-options.js';

export const CircuitState = { Closed: 'closed', Open: 'open', HalfOpen: 'halfOpen' } as const;
export type CircuitState = (typeof CircuitState)[keyof typeof CircuitState];

export interface CircuitStateChange {
  readonly endpointId: string;
  readonly from: CircuitState;
  readonly to: CircuitState;
  readonly at: Date;
}

/** Thrown (or used to abandon) when work is refused because the breaker is open. */
export class CircuitBreakerOpenError extends NimBusError<typeof NimBusErrorCode.CircuitOpen> {
  override readonly name = 'CircuitBreakerOpenError';
  constructor(readonly endpointId: string) {
    super(
      NimBusErrorCode.CircuitOpen,
      `The circuit breaker of endpoint ${endpointId} is open; the message is returned for a later attempt`,
    );
  }
}

interface Outcome {
  readonly at: number;
  readonly failed: boolean;
}

/**
 * One endpoint's breaker. Closed: outcomes are sampled; once the window holds `minimumThroughput` outcomes and
 * the failure percentage reaches the threshold it opens. Open: nothing is allowed for `breakDurationMs`. Half-open:
 * up to `halfOpenProbeCount` requests go through; that many successes close it, one counted failure reopens it.
 */
export class EndpointCircuitBreaker {
  readonly #options: ResolvedCircuitBreakerOptions;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #listeners = new Set<(change: CircuitStateChange) => void>();
  #wakeups: (() => void)[] = [];
  #state: CircuitState = CircuitState.Closed;
  #outcomes: Outcome[] = [];
  #openedAt = 0;
  #probesInFlight = 0;
  #probeSuccesses = 0;

  constructor(
    readonly endpointId: string,
    options: CircuitBreakerOptions = {},
  ) {
    if (typeof endpointId !== 'string' || endpointId.length === 0) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'EndpointCircuitBreaker needs a non-empty endpoint id',
      );
    }
    this.#options = resolveCircuitBreakerOptions(options);
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
  }

  get state(): CircuitState {
    this.#refresh();
    return this.#state;
  }

  /** When the open breaker lets probes through; `null` unless open. */
  get halfOpenAt(): Date | null {
    return this.state === CircuitState.Open ? new Date(this.#openedAt + this.#options.breakDurationMs) : null;
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: (change: CircuitStateChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Asks to start one request. Closed: always true. Open: false. Half-open: true while a probe slot is free
   * (the slot is taken; give it back with `releaseRequest()` when nothing was attempted after all).
   */
  allowRequest(): boolean {
    this.#refresh();
    if (this.#state === CircuitState.Closed) return true;
    if (this.#state === CircuitState.Open) return false;
    if (this.#probesInFlight + this.#probeSuccesses >= this.#options.halfOpenProbeCount) return false;
    this.#probesInFlight += 1;
    return true;
  }

  /** Returns a probe slot taken by `allowRequest()` that was not used. */
  releaseRequest(): void {
    if (this.#state !== CircuitState.HalfOpen || this.#probesInFlight === 0) return;
    this.#probesInFlight -= 1;
    this.#wake();
  }

  recordSuccess(): void {
    this.#refresh();
    if (this.#state === CircuitState.Closed) {
      this.#sample(false);
    } else if (this.#state === CircuitState.HalfOpen) {
      this.#probesInFlight = Math.max(0, this.#probesInFlight - 1);
      this.#probeSuccesses += 1;
      if (this.#probeSuccesses >= this.#options.halfOpenProbeCount) this.#transition(CircuitState.Closed);
      else this.#wake();
    }
  }

  /** Records a failed request; returns false when the error is excluded and was not counted. */
  recordFailure(error: unknown): boolean {
    this.#refresh();
    if (this.isExcluded(error)) {
      this.releaseRequest();
      return false;
    }
    if (this.#state === CircuitState.Closed) {
      this.#sample(true);
      if (this.#shouldOpen()) this.#transition(CircuitState.Open);
    } else if (this.#state === CircuitState.HalfOpen) {
      this.#transition(CircuitState.Open);
    }
    return true;
  }

  /** True when the error, or any error in its `cause` chain, is of an excluded type or matches `isExcluded`. */
  isExcluded(error: unknown): boolean {
    const { excludedErrors, isExcluded } = this.#options;
    const seen = new Set<unknown>();
    for (let current = error; current !== undefined && current !== null && !seen.has(current); ) {
      seen.add(current);
      if (excludedErrors.some((type) => current instanceof type)) return true;
      if (isExcluded?.(current)) return true;
      current = current instanceof Error ? current.cause : undefined;
    }
    return false;
  }

  /** Resolves once the breaker is closed or half-open, or when `signal` aborts. */
  async waitUntilClosedOrHalfOpen(signal?: AbortSignal): Promise<void> {
    while (this.state === CircuitState.Open && !signal?.aborted) {
      await this.#waitForChange(this.#openedAt + this.#options.breakDurationMs - this.#clock.now(), signal);
    }
  }

  /** Resolves once `allowRequest()` would say yes (without taking a slot), or when `signal` aborts. */
  async waitUntilRequestAllowed(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const state = this.state;
      if (signal?.aborted || state === CircuitState.Closed) return;
      if (
        state === CircuitState.HalfOpen &&
        this.#probesInFlight + this.#probeSuccesses < this.#options.halfOpenProbeCount
      )
        return;
      const untilHalfOpen = state === CircuitState.Open ? this.#openedAt + this.#options.breakDurationMs : 0;
      await this.#waitForChange(untilHalfOpen - this.#clock.now(), signal);
    }
  }

  /** Closes the breaker and forgets the sampled outcomes (operator action). */
  reset(): void {
    this.#outcomes = [];
    if (this.#state !== CircuitState.Closed) this.#transition(CircuitState.Closed);
  }

  #sample(failed: boolean): void {
    const now = this.#clock.now();
    this.#outcomes.push({ at: now, failed });
    const oldest = now - this.#options.samplingWindowMs;
    while (this.#outcomes.length > 0 && this.#outcomes[0]!.at <= oldest) this.#outcomes.shift();
  }

  #shouldOpen(): boolean {
    const total = this.#outcomes.length;
    if (total < this.#options.minimumThroughput) return false;
    const failures = this.#outcomes.filter((o) => o.failed).length;
    return (failures * 100) / total >= this.#options.failurePercentageThreshold;
  }

  #refresh(): void {
    if (
      this.#state === CircuitState.Open &&
      this.#clock.now() >= this.#openedAt + this.#options.breakDurationMs
    ) {
      this.#transition(CircuitState.HalfOpen);
    }
  }

  #transition(to: CircuitState): void {
    const from = this.#state;
    this.#state = to;
    this.#probesInFlight = 0;
    this.#probeSuccesses = 0;
    if (to === CircuitState.Open) this.#openedAt = this.#clock.now();
    if (to === CircuitState.Closed) this.#outcomes = [];
    const change: CircuitStateChange = {
      endpointId: this.endpointId,
      from,
      to,
      at: new Date(this.#clock.now()),
    };
    const level = to === CircuitState.Open ? 'warn' : 'info';
    this.#logger[level]({ ...change }, `Circuit breaker of ${this.endpointId}: ${from} → ${to}`);
    countMetric(TelemetryScope.CircuitBreaker, MetricName.CircuitBreakerTransitions, {
      [TelemetryAttribute.Endpoint]: this.endpointId,
      [TelemetryAttribute.CircuitState]: to,
    });
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.#logger.error({ error, endpointId: this.endpointId }, 'Circuit breaker state listener threw');
      }
    }
    this.#wake();
  }

  #wake(): void {
    const wakeups = this.#wakeups;
    this.#wakeups = [];
    for (const wake of wakeups) wake();
  }

  /** Waits for a state/slot change, at most `ms` of clock time (no timer when `ms` ≤ 0), or an abort. */
  async #waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const changed = new Promise<void>((resolve) => {
      this.#wakeups.push(resolve);
      stop.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      await (ms > 0 ? Promise.race([changed, this.#clock.sleep(ms, stop.signal)]) : changed);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop.abort();
    }
  }
}
