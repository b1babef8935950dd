/** The closed set of transport failure codes. */
export const TransportErrorCode = {
  SessionLockLost: 'SessionLockLost',
  MessageLockLost: 'MessageLockLost',
  SessionCannotBeLocked: 'SessionCannotBeLocked',
  EntityNotFound: 'EntityNotFound',
  MessageNotFound: 'MessageNotFound',
  MessageTooLarge: 'MessageTooLarge',
  Timeout: 'Timeout',
  QuotaExceeded: 'QuotaExceeded',
  ServiceUnavailable: 'ServiceUnavailable',
  Closed: 'Closed',
  InvalidArgument: 'InvalidArgument',
} as const;

export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

const RETRYABLE: ReadonlySet<TransportErrorCode> = new Set<TransportErrorCode>([
  TransportErrorCode.SessionLockLost,
  TransportErrorCode.MessageLockLost,
  TransportErrorCode.SessionCannotBeLocked,
  TransportErrorCode.Timeout,
  TransportErrorCode.QuotaExceeded,
  TransportErrorCode.ServiceUnavailable,
]);

export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly isRetryable: boolean;
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.isRetryable = RETRYABLE.has(code);
  }
}

export function isTransportError(error: unknown, code?: TransportErrorCode): error is TransportError {
  return error instanceof TransportError && (code === undefined || error.code === code);
}
