import { NimBusErrorCode } from '../errors/error-codes.js';
import { isNimBusError, NimBusError } from '../errors/nimbus-error.js';

/** The closed set of transport failure codes (a part of `NimBusErrorCode`). */
export const TransportErrorCode = {
  SessionLockLost: NimBusErrorCode.SessionLockLost,
  MessageLockLost: NimBusErrorCode.MessageLockLost,
  SessionCannotBeLocked: NimBusErrorCode.SessionCannotBeLocked,
  EntityNotFound: NimBusErrorCode.EntityNotFound,
  MessageNotFound: NimBusErrorCode.MessageNotFound,
  MessageTooLarge: NimBusErrorCode.MessageTooLarge,
  Timeout: NimBusErrorCode.Timeout,
  QuotaExceeded: NimBusErrorCode.QuotaExceeded,
  ServiceUnavailable: NimBusErrorCode.ServiceUnavailable,
  Closed: NimBusErrorCode.Closed,
  InvalidArgument: NimBusErrorCode.InvalidArgument,
} as const;

export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

/** A transport failure; retryable unless its code says otherwise (lock losses, timeouts, unavailability are). */
export class TransportError extends NimBusError<TransportErrorCode> {
  override readonly name = 'TransportError';
}

/** By name and code, not `instanceof`: a `TransportError` of a second copy of `@nimbus/core` counts. */
export function isTransportError(error: unknown, code?: TransportErrorCode): error is TransportError {
  return isNimBusError(error, code) && error.name === 'TransportError';
}
