import { isRetryableError } from '@nimbus/core';
import { StorageProviderTransientError } from '@nimbus/message-store';

interface CosmosErrorLike {
  readonly code?: number | string;
  readonly statusCode?: number;
  readonly retryAfterInMs?: number;
  readonly message?: string;
}

export function cosmosStatusOf(error: unknown): number | null {
  if (error === null || typeof error !== 'object') return null;
  const e = error as CosmosErrorLike;
  const code = typeof e.code === 'number' ? e.code : typeof e.statusCode === 'number' ? e.statusCode : null;
  return code;
}

export const isCosmosStatus = (error: unknown, status: number) => cosmosStatusOf(error) === status;

const TRANSIENT_STATUSES = new Set([408, 429, 449, 503]);
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'TimeoutError',
]);

/**
 * Throttling (429, after the SDK's own retries), timeouts, unavailability and lost connections become
 * `StorageProviderTransientError` carrying the service's retry-after; anything else is returned as is.
 */
export function toTransientError(error: unknown, operation: string): unknown {
  if (isRetryableError(error)) return error;
  const status = cosmosStatusOf(error);
  const e = (error ?? {}) as CosmosErrorLike & { name?: string; cause?: { code?: string } };
  const networkCode = typeof e.code === 'string' ? e.code : e.cause?.code;
  if (status !== null && TRANSIENT_STATUSES.has(status)) {
    const retryAfter = typeof e.retryAfterInMs === 'number' ? e.retryAfterInMs : null;
    const what =
      status === 429 ? 'throttled the request (429, request rate too large)' : `answered ${status}`;
    return new StorageProviderTransientError(`Cosmos DB ${what} during ${operation}.`, retryAfter, {
      cause: error,
    });
  }
  if ((networkCode && TRANSIENT_NETWORK_CODES.has(networkCode)) || e.name === 'TimeoutError') {
    return new StorageProviderTransientError(
      `Cosmos DB could not be reached during ${operation}: ${e.message ?? networkCode}`,
      null,
      { cause: error },
    );
  }
  return error;
}

/** A compare-and-swap lost to a concurrent writer: the caller re-reads and decides again. */
export class LostWriteRaceError extends StorageProviderTransientError {
  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `${what} lost a concurrent-write race (the document changed between read and write); retry.`,
      0,
      options,
    );
  }
}

/** By name (the class sets it from `new.target`), like every guard of ours: see `isNimBusError`. */
export function isLostWriteRace(error: unknown): error is LostWriteRaceError {
  return isRetryableError(error) && (error as Error).name === 'LostWriteRaceError';
}
