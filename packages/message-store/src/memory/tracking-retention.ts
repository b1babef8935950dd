import type { TrackingRetention } from '../contracts/message-tracking-store.js';
import { FINISHED_STATUSES } from '../enums.js';
import type { RetentionSweepResult } from '../retention.js';
import type { MemoryState } from './state.js';

export function createRetentionSweep(state: MemoryState): TrackingRetention {
  return {
    async sweepExpired(at) {
      const cutoff = at?.getTime() ?? state.clock.now();
      const result = {
        unresolvedRows: 0,
        terminalRows: 0,
        softDeletedRows: 0,
        archivedRows: 0,
        messages: 0,
        audits: 0,
      } satisfies RetentionSweepResult;
      for (const [key, row] of state.rows) {
        if (row.expiresAt === null || row.expiresAt > cutoff) continue;
        state.rows.delete(key);
        if (row.visibility === 'removed') result.softDeletedRows += 1;
        else if (row.visibility === 'archived') result.archivedRows += 1;
        else if (FINISHED_STATUSES.has(row.event.resolutionStatus)) result.terminalRows += 1;
        else result.unresolvedRows += 1;
      }
      for (const [key, message] of state.messages) {
        if (message.expiresAt > cutoff) continue;
        state.messages.delete(key);
        result.messages += 1;
      }
      const kept = state.audits.filter((a) => a.expiresAt > cutoff);
      result.audits = state.audits.length - kept.length;
      state.audits = kept;
      return result;
    },
  };
}
