import { assertValidStatusWriteKey } from '../argument-checks.js';
import type { TrackingRowLifecycle, TrackingStatusWrites } from '../contracts/message-tracking-parts.js';
import type { UnresolvedEventWrite } from '../entities/unresolved-event.js';
import { FINISHED_STATUSES, ResolutionStatus } from '../enums.js';
import { toUnresolvedEvent } from '../normalize.js';
import { FIXED_RETENTION_MS, unresolvedRetentionMs } from '../retention.js';
import { decideStatusWrite } from '../stale-write-guard.js';
import {
  clone,
  type MemoryState,
  nextSeq,
  now,
  pairKey,
  type RowVisibility,
  type TrackingRow,
} from './state.js';

type WriteMethods = TrackingStatusWrites & TrackingRowLifecycle;

export function rowKey(endpointId: string, eventId: string, sessionId: string): string {
  return pairKey(endpointId, eventId, sessionId);
}

export function liveRow(state: MemoryState, key: string): TrackingRow | null {
  const row = state.rows.get(key);
  return row !== undefined && row.visibility === 'live' ? row : null;
}

function expiryFor(state: MemoryState, status: ResolutionStatus, at: number): number | null {
  if (FINISHED_STATUSES.has(status)) return at + FIXED_RETENTION_MS.terminalRows;
  const window = unresolvedRetentionMs(state.retention);
  return window === null ? null : at + window;
}

export function createTrackingWrites(state: MemoryState): WriteMethods {
  // Everything below runs without an await between read and write, so each call is atomic.
  const upload =
    (status: ResolutionStatus) =>
    async (eventId: string, sessionId: string, endpointId: string, content: UnresolvedEventWrite) => {
      assertValidStatusWriteKey({ eventId, sessionId, endpointId });
      const at = now(state);
      const key = rowKey(endpointId, eventId, sessionId);
      const incoming = toUnresolvedEvent({ eventId, sessionId, endpointId }, status, clone(content), at);
      const existing = liveRow(state, key);
      if (decideStatusWrite(existing?.event ?? null, incoming) === 'refuse') return false;
      state.rows.set(key, {
        event: incoming,
        visibility: 'live',
        seq: nextSeq(state),
        expiresAt: expiryFor(state, status, at.getTime()),
      });
      return true;
    };

  const hide = (row: TrackingRow, visibility: RowVisibility, retentionMs: number) => {
    row.visibility = visibility;
    row.seq = nextSeq(state);
    row.expiresAt = state.clock.now() + retentionMs;
  };

  return {
    uploadPendingMessage: upload(ResolutionStatus.Pending),
    uploadDeferredMessage: upload(ResolutionStatus.Deferred),
    uploadFailedMessage: upload(ResolutionStatus.Failed),
    uploadDeadletteredMessage: upload(ResolutionStatus.DeadLettered),
    uploadUnsupportedMessage: upload(ResolutionStatus.Unsupported),
    uploadSkippedMessage: upload(ResolutionStatus.Skipped),
    uploadCompletedMessage: upload(ResolutionStatus.Completed),

    async tryCompletePendingMessage(eventId, sessionId, endpointId, expectedLastMessageId, content) {
      assertValidStatusWriteKey({ eventId, sessionId, endpointId });
      const key = rowKey(endpointId, eventId, sessionId);
      const existing = liveRow(state, key);
      if (existing === null) return false;
      if (existing.event.resolutionStatus !== ResolutionStatus.Pending) return false;
      if (existing.event.lastMessageId !== (expectedLastMessageId ?? null)) return false;
      const at = now(state);
      const completed = toUnresolvedEvent(
        { eventId, sessionId, endpointId },
        ResolutionStatus.Completed,
        clone(content),
        at,
      );
      state.rows.set(key, {
        event: completed,
        visibility: 'live',
        seq: nextSeq(state),
        expiresAt: expiryFor(state, ResolutionStatus.Completed, at.getTime()),
      });
      return true;
    },

    async removeMessage(eventId, sessionId, endpointId) {
      const row = liveRow(state, rowKey(endpointId, eventId, sessionId));
      if (row === null) return false;
      hide(row, 'removed', FIXED_RETENTION_MS.softDeletedRows);
      return true;
    },

    async purgeMessages(endpointId, sessionId) {
      let any = false;
      for (const row of state.rows.values()) {
        if (row.visibility !== 'live' || row.event.endpointId !== endpointId) continue;
        if (sessionId !== undefined && row.event.sessionId !== sessionId) continue;
        hide(row, 'removed', FIXED_RETENTION_MS.softDeletedRows);
        any = true;
      }
      return any;
    },

    async archiveFailedEvent(eventId, sessionId, endpointId) {
      const row = liveRow(state, rowKey(endpointId, eventId, sessionId));
      if (row !== null) hide(row, 'archived', FIXED_RETENTION_MS.archivedFailedRows);
    },
  };
}
