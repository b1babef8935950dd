import { type NimBusErrorCode, RETRYABLE_BY_DEFAULT } from './error-codes.js';

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

/** Whether `error` is a NimBus error (of `code`, when given). */
export function isNimBusError(error: unknown, code?: NimBusErrorCode): error is NimBusError {
  return error instanceof NimBusError && (code === undefined || error.code === code);
}

/**
 * The one retry question: a NimBus error that says it is retryable. Anything else (a plain `Error` from a
 * handler, a driver error nobody translated) is not: it is a failure the retry policies and classifiers decide.
 */
export function isRetryableError(error: unknown): boolean {
  return error instanceof NimBusError && error.isRetryable;
}
