import { isRetryableError } from '@nimbus/core';
import { StorageProviderTransientError } from '@nimbus/message-store';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * The typed error for a driver failure `classifyDriverError` calls retryable (connection loss, lock timeout /
 * SQLITE_BUSY, serialization failure, deadlock): a `StorageProviderTransientError` (`isRetryable`), which callers
 * back off on. Any other error unchanged.
 */
export function translateTransientError(error: unknown, dialect: SqlDialect, providerName: string): unknown {
  // Already retryable (by shape, not instanceof: another copy of the package made it).
  if (isRetryableError(error) || !dialect.isRetryable(error)) return error;
  return new StorageProviderTransientError(
    `The ${providerName} message store is temporarily unavailable.`,
    null,
    { cause: error },
  );
}

/** Wraps every method so its failures go through `translateTransientError`. */
export function translateTransientErrors<T extends object>(
  target: T,
  dialect: SqlDialect,
  providerName: string,
): T {
  const translate = (error: unknown): unknown => translateTransientError(error, dialect, providerName);
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              const result = (value as (...a: unknown[]) => unknown)(...args);
              return result instanceof Promise
                ? result.catch((error: unknown) => {
                    throw translate(error);
                  })
                : result;
            } catch (error) {
              throw translate(error);
            }
          }
        : value;
  }
  return wrapped as T;
}
