import { MessageStoreError, MessageStoreErrorCode } from '@nimbus/message-store';

/** A provider failure worth trying again later: connection loss, lock timeout, throttling. */
export function isTransientStoreError(error: unknown): error is MessageStoreError {
  return (
    error instanceof MessageStoreError &&
    (error.isRetryable || error.code === MessageStoreErrorCode.Transient)
  );
}

/** The provider's own wait hint in milliseconds, when it gave one. */
export function retryAfterMsOf(error: unknown): number | null {
  const value = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
