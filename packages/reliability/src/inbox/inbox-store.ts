import { createHash } from 'node:crypto';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/**
 * Remembers which messages an endpoint has handled. Key: (endpoint id, message id), compared exactly — case,
 * and trailing spaces, matter. Every operation refuses an already-aborted signal without side effects.
 */
export interface InboxStore {
  readonly provider: string;
  hasProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<boolean>;
  /** Idempotent: recording again succeeds and keeps the first record time. */
  recordProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<void>;
  /** Deletes up to `INBOX_PURGE_BATCH` of this endpoint's records made before `cutoff`; returns how many. */
  purgeExpired(endpointId: string, cutoff: Date, signal?: AbortSignal): Promise<number>;
}

export const MAX_INBOX_ENDPOINT_ID_LENGTH = 260;
export const MAX_INBOX_MESSAGE_ID_LENGTH = 512;
export const INBOX_PURGE_BATCH = 1000;

/** SHA-256 over the length-prefixed pair, so no two distinct pairs share a key. */
export function inboxIdentity(endpointId: string, messageId: string): string {
  return createHash('sha256')
    .update(`${endpointId.length}\u001F${endpointId}\u001F${messageId}`, 'utf8')
    .digest('hex');
}

/** Why an inbox check is bypassed for this pair (the handler then runs unguarded), or `null`. */
export function inboxBypassReason(
  endpointId: string | null | undefined,
  messageId: string | null | undefined,
) {
  if (!endpointId || endpointId.trim() === '') return 'the endpoint id is missing';
  if (!messageId || messageId.trim() === '') return 'the message id is missing';
  if (endpointId.length > MAX_INBOX_ENDPOINT_ID_LENGTH)
    return `the endpoint id is longer than ${MAX_INBOX_ENDPOINT_ID_LENGTH} characters`;
  if (messageId.length > MAX_INBOX_MESSAGE_ID_LENGTH)
    return `the message id is longer than ${MAX_INBOX_MESSAGE_ID_LENGTH} characters`;
  return null;
}

/** A store call failed; transient: the message should be abandoned and redelivered. */
export class InboxStoreError extends NimBusError<typeof NimBusErrorCode.Transient> {
  override readonly name = 'InboxStoreError';
  constructor(
    readonly operation: 'check' | 'record' | 'purge',
    options?: { cause?: unknown },
  ) {
    super(
      NimBusErrorCode.Transient,
      `The inbox store failed during ${operation}; the message should be retried`,
      options,
    );
  }
}
