import type { TrackingEventLookups } from '../contracts/message-tracking-store.js';
import { HANDOFF_SUB_STATUS, ResolutionStatus } from '../enums.js';
import { compositeIdOf as idOf, liveRowsOn, newestFirst } from './live-rows.js';
import { clone, type MemoryState } from './state.js';
import { liveRow, rowKey } from './tracking-writes.js';

export function createTrackingLookups(state: MemoryState): TrackingEventLookups {
  const liveOn = (endpointId: string) => liveRowsOn(state, endpointId);

  const handoffRows = (endpointId: string) =>
    liveOn(endpointId).filter(
      (r) =>
        r.event.resolutionStatus === ResolutionStatus.Pending &&
        r.event.pendingSubStatus === HANDOFF_SUB_STATUS,
    );

  return {
    async getEventInStatus({ key, status }) {
      const row = liveRow(state, rowKey(key.endpointId, key.eventId, key.sessionId));
      return row !== null && row.event.resolutionStatus === status ? clone(row.event) : null;
    },

    async getEvent({ endpointId, eventId }) {
      const newest = liveOn(endpointId)
        .filter((r) => r.event.eventId === eventId)
        .sort(newestFirst)[0];
      return newest === undefined ? null : clone(newest.event);
    },

    async getEventById({ endpointId, id }) {
      const row = liveOn(endpointId).find((r) => idOf(r.event) === id);
      return row === undefined ? null : clone(row.event);
    },

    async getEventsByIds({ endpointId, ids }) {
      if (ids.length === 0) return [];
      const wanted = new Set(ids);
      return liveOn(endpointId)
        .filter((r) => wanted.has(idOf(r.event)) || wanted.has(r.event.eventId))
        .sort(newestFirst)
        .map((r) => clone(r.event));
    },

    async getCompletedEventsOnEndpoint(endpointId) {
      return liveOn(endpointId)
        .filter((r) => r.event.resolutionStatus === ResolutionStatus.Completed)
        .sort(newestFirst)
        .map((r) => clone(r.event));
    },

    async getPendingHandoffByExternalJobId({ endpointId, externalJobId }) {
      if (externalJobId == null || externalJobId === '') return null;
      const row = handoffRows(endpointId).find((r) => r.event.externalJobId === externalJobId);
      return row === undefined ? null : clone(row.event);
    },

    async getNextPendingHandoffEvent({ endpointId, eventTypeIds }) {
      const types = eventTypeIds?.filter((t) => t !== '') ?? [];
      const oldest = handoffRows(endpointId)
        .filter(
          (r) => types.length === 0 || (r.event.eventTypeId !== null && types.includes(r.event.eventTypeId)),
        )
        .sort(
          (a, b) => a.event.enqueuedTimeUtc.getTime() - b.event.enqueuedTimeUtc.getTime() || a.seq - b.seq,
        )[0];
      return oldest === undefined ? null : clone(oldest.event);
    },
  };
}
