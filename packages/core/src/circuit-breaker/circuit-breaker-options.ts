import type { Clock } from '../clock.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { Logger } from '../logger.js';

// biome-ignore lint/suspicious/noExplicitAny: an error class of any constructor signature
export type ErrorClass = abstract new (...args: any[]) => Error;

export interface CircuitBreakerOptions {
  /** Outcomes within the sampling window before the breaker may open. Default 10. */
  readonly minimumThroughput?: number;
  /** Percentage of failed outcomes (1–100) within the window that opens the breaker. Default 50. */
  readonly failurePercentageThreshold?: number;
  /** How far back outcomes count. Default 30 000 ms. */
  readonly samplingWindowMs?: number;
  /** How long the breaker stays open before letting probes through. Default 30 000 ms. */
  readonly breakDurationMs?: number;
  /** Probes let through while half-open; that many successes close the breaker. Default 1. */
  readonly halfOpenProbeCount?: number;
  /** Failures of these types (or caused by them) are not counted: throttling and rejected data are not outages. */
  readonly excludedErrors?: readonly ErrorClass[];
  /** A further test for failures that must not count. */
  readonly isExcluded?: (error: unknown) => boolean;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

export interface ResolvedCircuitBreakerOptions {
  readonly minimumThroughput: number;
  readonly failurePercentageThreshold: number;
  readonly samplingWindowMs: number;
  readonly breakDurationMs: number;
  readonly halfOpenProbeCount: number;
  readonly excludedErrors: readonly ErrorClass[];
  readonly isExcluded: ((error: unknown) => boolean) | undefined;
}

export class CircuitBreakerOptionsError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'CircuitBreakerOptionsError';
  constructor(message: string) {
    super(NimBusErrorCode.InvalidOption, message);
  }
}

function integer(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CircuitBreakerOptionsError(
      `Circuit breaker option ${name} must be an integer between ${min} and ${max}, got ${String(value)}`,
    );
  }
  return value;
}

export function resolveCircuitBreakerOptions(options: CircuitBreakerOptions): ResolvedCircuitBreakerOptions {
  for (const type of options.excludedErrors ?? []) {
    if (typeof type !== 'function') {
      throw new CircuitBreakerOptionsError('Circuit breaker option excludedErrors must list error classes');
    }
  }
  return {
    minimumThroughput: integer('minimumThroughput', options.minimumThroughput ?? 10, 1),
    failurePercentageThreshold: integer(
      'failurePercentageThreshold',
      options.failurePercentageThreshold ?? 50,
      1,
      100,
    ),
    samplingWindowMs: integer('samplingWindowMs', options.samplingWindowMs ?? 30_000, 1),
    breakDurationMs: integer('breakDurationMs', options.breakDurationMs ?? 30_000, 1),
    halfOpenProbeCount: integer('halfOpenProbeCount', options.halfOpenProbeCount ?? 1, 1),
    excludedErrors: options.excludedErrors ?? [],
    isExcluded: options.isExcluded,
  };
}
