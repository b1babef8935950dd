import { assertValidStatusWriteKey } from '../argument-checks.js';
import type { TrackingRowLifecycle, TrackingStatusWrites } from '../contracts/message-tracking-store.js';
import type { StatusWrite, TrackedEventKey } from '../contracts/tracking-requests.js';
import { FINISHED_STATUSES, ResolutionStatus } from '../enums.js';
import { rowFailureSignature } from '../failure-groups.js';
import { toUnresolvedEvent } from '../normalize.js';
import { redeliveredStatusWrites, writeLeavingOutRedelivered } from '../redelivered-status-writes.js';
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
import { storeMemoryMessages } from './tracking-history.js';

type WriteMethods = TrackingStatusWrites & TrackingRowLifecycle;

export function rowKey(endpointId: string, eventId: string, sessionId: string): string {
  return pairKey(endpointId, eventId, sessionId);
}

const keyOf = (key: TrackedEventKey) => rowKey(key.endpointId, key.eventId, key.sessionId);

export function liveRow(state: MemoryState, key: string): TrackingRow | null {
  const row = state.rows.get(key);
  return row !== undefined && row.visibility === 'live' ? row : null;
}

/** The expiry a row gets from the retention in force at the write; it keeps it until rewritten. */
function expiryFor(state: MemoryState, status: ResolutionStatus, at: number): number | null {
  if (FINISHED_STATUSES.has(status)) return at + FIXED_RETENTION_MS.terminalRows;
  const window = unresolvedRetentionMs(state.retention);
  return window === null ? null : at + window;
}

/** Applies status writes in order, each guarded against the row as the previous one left it. Synchronous. */
function applyStatusWrites(state: MemoryState, writes: readonly StatusWrite[]): boolean[] {
  for (const write of writes) assertValidStatusWriteKey(write.key);
  const at = now(state);
  return writes.map(({ key, status, content }) => {
    const incoming = toUnresolvedEvent(key, status, clone(content), at);
    const rowId = keyOf(key);
    const existing = liveRow(state, rowId);
    if (decideStatusWrite(existing?.event ?? null, incoming) === 'refuse') return false;
    state.rows.set(rowId, {
      event: incoming,
      visibility: 'live',
      seq: nextSeq(state),
      expiresAt: expiryFor(state, status, at.getTime()),
      failureSignature: rowFailureSignature(incoming),
    });
    return true;
  });
}

export function createTrackingWrites(state: MemoryState): WriteMethods {
  // Everything below runs without an await between read and write, so each call is atomic.
  const hide = (row: TrackingRow, visibility: RowVisibility, retentionMs: number) => {
    row.visibility = visibility;
    row.seq = nextSeq(state);
    row.expiresAt = state.clock.now() + retentionMs;
  };

  return {
    async writeStatus(write) {
      return applyStatusWrites(state, [write])[0]!;
    },

    async writeStatuses(writes) {
      return applyStatusWrites(state, writes);
    },

    async writeBatch({ messages = [], statuses = [] }) {
      for (const write of statuses) assertValidStatusWriteKey(write.key);
      const messagesStored = storeMemoryMessages(state, messages);
      const redelivered = redeliveredStatusWrites(messages, messagesStored, statuses);
      const statusesWritten = await writeLeavingOutRedelivered(statuses, redelivered, (fresh) =>
        applyStatusWrites(state, fresh),
      );
      return { messagesStored, statusesWritten };
    },

    async tryCompletePending({ key, expectedLastMessageId, content }) {
      assertValidStatusWriteKey(key);
      const rowId = keyOf(key);
      const existing = liveRow(state, rowId);
      if (existing === null) return false;
      if (existing.event.resolutionStatus !== ResolutionStatus.Pending) return false;
      if (existing.event.lastMessageId !== (expectedLastMessageId ?? null)) return false;
      const at = now(state);
      const completed = toUnresolvedEvent(key, ResolutionStatus.Completed, clone(content), at);
      state.rows.set(rowId, {
        event: completed,
        visibility: 'live',
        seq: nextSeq(state),
        expiresAt: expiryFor(state, ResolutionStatus.Completed, at.getTime()),
        failureSignature: null,
      });
      return true;
    },

    async removeMessage(key) {
      const row = liveRow(state, keyOf(key));
      if (row === null) return false;
      hide(row, 'removed', FIXED_RETENTION_MS.softDeletedRows);
      return true;
    },

    async purgeMessages({ endpointId, sessionId }) {
      let any = false;
      for (const row of state.rows.values()) {
        if (row.visibility !== 'live' || row.event.endpointId !== endpointId) continue;
        if (sessionId !== undefined && row.event.sessionId !== sessionId) continue;
        hide(row, 'removed', FIXED_RETENTION_MS.softDeletedRows);
        any = true;
      }
      return any;
    },

    async archiveFailedEvent(key) {
      const row = liveRow(state, keyOf(key));
      if (row !== null) hide(row, 'archived', FIXED_RETENTION_MS.archivedFailedRows);
    },
  };
}
