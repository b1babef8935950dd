import {
  type NimBusErrorCode,
  NimBusErrorCode as NimBusErrorCodes,
  RETRYABLE_BY_DEFAULT,
} from './error-codes.js';

export interface NimBusErrorOptions {
  /** The failure this error reports (standard `Error.cause`). */
  readonly cause?: unknown;
  /** Overrides the code's default (`RETRYABLE_BY_DEFAULT`), e.g. from a driver's own classification. */
  readonly isRetryable?: boolean;
}

/**
 * The base of every error NimBus throws on purpose: a `code` from the one documented list
 * (`NimBusErrorCode`, docs/errors.md), `isRetryable` (trying the same call or message again later may succeed;
 * every retry and back-off decision in NimBus branches on it and on nothing else) and the standard `cause`.
 */
export class NimBusError<C extends NimBusErrorCode = NimBusErrorCode> extends Error {
  override name = 'NimBusError';
  readonly code: C;
  readonly isRetryable: boolean;

  constructor(code: C, message: string, options: NimBusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.isRetryable = options.isRetryable ?? RETRYABLE_BY_DEFAULT.has(code);
  }
}

const CODES: ReadonlySet<string> = new Set(Object.values(NimBusErrorCodes));

/**
 * Whether `error` is a NimBus error (of `code`, when given). It checks the shape (an `Error` with a known
 * `code` and a boolean `isRetryable`), not `instanceof`: two copies of `@nimbus/core` in one process (a
 * bundled and a hoisted one) still agree on each other's errors.
 */
export function isNimBusError(error: unknown, code?: NimBusErrorCode): error is NimBusError {
  if (!(error instanceof Error)) return false;
  const candidate = error as Partial<NimBusError>;
  return (
    typeof candidate.code === 'string' &&
    CODES.has(candidate.code) &&
    typeof candidate.isRetryable === 'boolean' &&
    (code === undefined || candidate.code === code)
  );
}

/**
 * The one retry question: a NimBus error that says it is retryable. Anything else (a plain `Error` from a
 * handler, a driver error nobody translated) is not: it is a failure the retry policies and classifiers decide.
 */
export function isRetryableError(error: unknown): boolean {
  return isNimBusError(error) && error.isRetryable;
}
