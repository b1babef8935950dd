import { isTransportError, TransportError, TransportErrorCode } from '@nimbus/core';
import { classifyDriverError, describeDriverError } from '@nimbus/sql';

/**
 * Turns driver failures the one SQL classification calls retryable into `TransportError`s carrying that
 * classification as `isRetryable` (the session processor backs off on them); anything else is rethrown unchanged.
 */
export function translateDriverError(error: unknown): unknown {
  if (isTransportError(error)) return error;
  const { isRetryable, reason } = classifyDriverError(error);
  if (!isRetryable) return error;
  const code =
    reason === 'conflict' || reason === 'busy'
      ? TransportErrorCode.Timeout
      : TransportErrorCode.ServiceUnavailable;
  return new TransportError(code, `SQL transport database unavailable: ${describeDriverError(error)}`, {
    cause: error,
    isRetryable,
  });
}
