import { TransportError, TransportErrorCode } from '@nimbus/core';

const PG_UNAVAILABLE_CLASSES = ['08', '53', '57'];
const NODE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Turns driver failures that mean "try again later" into retryable `TransportError`s (the session processor
 * backs off on them); anything else is rethrown unchanged.
 */
export function translateDriverError(error: unknown): unknown {
  if (error instanceof TransportError) return error;
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return error;
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') {
    return new TransportError(
      TransportErrorCode.Timeout,
      `SQLite database is busy: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (NODE_NETWORK_CODES.has(code) || PG_UNAVAILABLE_CLASSES.some((prefix) => code.startsWith(prefix))) {
    return new TransportError(
      TransportErrorCode.ServiceUnavailable,
      `PostgreSQL is unavailable: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (code === '40001' || code === '40P01') {
    return new TransportError(
      TransportErrorCode.Timeout,
      `PostgreSQL transaction conflict: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return error;
}
