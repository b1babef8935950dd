import type { TrackingFailureGroups } from '../contracts/message-tracking-store.js';
import { aggregateFailureGroups, type FailureGroupRow } from '../failure-groups.js';
import { liveRows } from './live-rows.js';
import type { MemoryState } from './state.js';

export function createMemoryFailureGroups(state: MemoryState): TrackingFailureGroups {
  return {
    async getFailureGroups({ endpointIds = null, acrossEndpoints = false, signature = null }) {
      const wanted = endpointIds === null ? null : new Set(endpointIds);
      const rows: FailureGroupRow[] = [];
      for (const row of liveRows(state)) {
        const e = row.event;
        if (row.failureSignature === null || (wanted !== null && !wanted.has(e.endpointId))) continue;
        if (signature && row.failureSignature !== signature) continue;
        rows.push({
          endpointId: e.endpointId,
          sessionId: e.sessionId,
          signature: row.failureSignature,
          status: e.resolutionStatus,
          updatedAt: e.updatedAt,
          order: row.seq,
          errorText: e.messageContent.errorContent?.errorText ?? e.deadLetterErrorDescription,
          eventTypeId: e.eventTypeId,
        });
      }
      return aggregateFailureGroups(rows, acrossEndpoints);
    },
  };
}
