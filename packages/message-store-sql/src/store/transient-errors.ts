import { StorageProviderTransientError } from '@nimbus/message-store';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Wraps every method so a transient database failure (connection loss, lock timeout / SQLITE_BUSY,
 * serialization failure, deadlock) surfaces as `StorageProviderTransientError`, which callers back off
 * on. Every other error passes through unchanged.
 */
export function translateTransientErrors<T extends object>(
  target: T,
  dialect: SqlDialect,
  providerName: string,
): T {
  const translate = (error: unknown): unknown =>
    dialect.isTransient(error) && !(error instanceof StorageProviderTransientError)
      ? new StorageProviderTransientError(
          `The ${providerName} message store is temporarily unavailable.`,
          null,
          {
            cause: error,
          },
        )
      : error;
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

/** The typed transient error for a transient database failure; any other error unchanged. */
export function translateTransientError(error: unknown, dialect: SqlDialect, providerName: string): unknown {
  return dialect.isTransient(error) && !(error instanceof StorageProviderTransientError)
    ? new StorageProviderTransientError(
        `The ${providerName} message store is temporarily unavailable.`,
        null,
        {
          cause: error,
        },
      )
    : error;
}
