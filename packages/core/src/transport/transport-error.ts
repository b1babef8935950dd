import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

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

export function isTransportError(error: unknown, code?: TransportErrorCode): error is TransportError {
  return error instanceof TransportError && (code === undefined || error.code === code);
}
