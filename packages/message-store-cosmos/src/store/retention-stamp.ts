import {
  FINISHED_STATUSES,
  FIXED_RETENTION_MS,
  type ResolutionStatus,
  type RetentionOptions,
} from '@nimbus/message-store';
import { unresolvedRetentionMs } from '@nimbus/message-store/provider';

/** How a document is kept: Cosmos `ttl` in seconds (-1 = never) and the same instant for `sweepExpired`. */
export interface RetentionStamp {
  readonly ttl: number;
  /** Store-clock ms when the document is due for deletion; null = kept forever. */
  readonly expiresAt: number | null;
}

export const KEEP_FOREVER: RetentionStamp = Object.freeze({ ttl: -1, expiresAt: null });

export function stampFor(retentionMs: number | null, at: Date): RetentionStamp {
  if (retentionMs === null) return KEEP_FOREVER;
  return { ttl: Math.ceil(retentionMs / 1000), expiresAt: at.getTime() + retentionMs };
}

/** Terminal rows: 30 days; the five unresolved statuses: the configured window (unlimited by default). */
export function statusRetention(
  status: ResolutionStatus,
  retention: RetentionOptions,
  at: Date,
): RetentionStamp {
  if (FINISHED_STATUSES.has(status)) return stampFor(FIXED_RETENTION_MS.terminalRows, at);
  return stampFor(unresolvedRetentionMs(retention), at);
}
