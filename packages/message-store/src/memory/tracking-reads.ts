import { compositeEventId } from '../composite-id.js';
import type {
  TrackingEndpointViews,
  TrackingEventLookups,
  TrackingEventSearch,
} from '../contracts/message-tracking-parts.js';
import { formatEndpointErrorList } from '../endpoint-error-list.js';
import {
  ERROR_LIST_STATUSES,
  endpointStateCount,
  endpointStatePage,
  SESSION_BLOCKING_STATUSES,
  sessionStateCount,
  toBlockedMessageEvent,
} from '../endpoint-summaries.js';
import type { UnresolvedEvent } from '../entities/unresolved-event.js';
import { EndpointRole, HANDOFF_SUB_STATUS, ResolutionStatus, UNRESOLVED_STATUSES } from '../enums.js';
import { withEventJsonStripped } from '../normalize.js';
import { offsetPageRequest, sliceOffsetPage } from '../offset-paging.js';
import { PaginationLimits } from '../pagination.js';
import { matchesOneOf, matchesTrackedMessageFilter, withinRange } from '../search-matching.js';
import { clone, type MemoryState, now, type TrackingRow } from './state.js';
import { liveRow, rowKey } from './tracking-writes.js';

type ReadMethods = TrackingEventLookups & TrackingEventSearch & TrackingEndpointViews;

const newestFirst = (a: TrackingRow, b: TrackingRow) =>
  b.event.updatedAt.getTime() - a.event.updatedAt.getTime() || b.seq - a.seq;

const idOf = (e: UnresolvedEvent) => compositeEventId(e.eventId, e.sessionId);

export function createTrackingReads(state: MemoryState): ReadMethods {
  const liveOn = (endpointId: string): TrackingRow[] =>
    [...state.rows.values()].filter((r) => r.visibility === 'live' && r.event.endpointId === endpointId);

  const byStatus =
    (status: ResolutionStatus) =>
    async (endpointId: string, eventId: string, sessionId: string): Promise<UnresolvedEvent | null> => {
      const row = liveRow(state, rowKey(endpointId, eventId, sessionId));
      return row !== null && row.event.resolutionStatus === status ? clone(row.event) : null;
    };

  const sessionCount = (endpointId: string, sessionId: string) =>
    sessionStateCount(
      sessionId,
      liveOn(endpointId)
        .filter((r) => r.event.sessionId === sessionId)
        .sort(newestFirst)
        .map((r) => r.event),
    );

  const handoffRows = (endpointId: string) =>
    liveOn(endpointId).filter(
      (r) =>
        r.event.resolutionStatus === ResolutionStatus.Pending &&
        r.event.pendingSubStatus === HANDOFF_SUB_STATUS,
    );

  return {
    getPendingEvent: byStatus(ResolutionStatus.Pending),
    getFailedEvent: byStatus(ResolutionStatus.Failed),
    getDeferredEvent: byStatus(ResolutionStatus.Deferred),
    getDeadletteredEvent: byStatus(ResolutionStatus.DeadLettered),
    getUnsupportedEvent: byStatus(ResolutionStatus.Unsupported),

    async getEvent(endpointId, eventId) {
      const newest = liveOn(endpointId)
        .filter((r) => r.event.eventId === eventId)
        .sort(newestFirst)[0];
      return newest === undefined ? null : clone(newest.event);
    },

    async getEventById(endpointId, id) {
      const row = liveOn(endpointId).find((r) => idOf(r.event) === id);
      return row === undefined ? null : clone(row.event);
    },

    async getEventsByIds(endpointId, ids) {
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

    async getPendingHandoffByExternalJobId(endpointId, externalJobId) {
      if (externalJobId == null || externalJobId === '') return null;
      const row = handoffRows(endpointId).find((r) => r.event.externalJobId === externalJobId);
      return row === undefined ? null : clone(row.event);
    },

    async getNextPendingHandoffEvent(endpointId, eventTypeIds) {
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

    async getEventsByFilter(filter, continuationToken, maxSearchItemsCount) {
      const request = offsetPageRequest(continuationToken, maxSearchItemsCount);
      const matching = [...state.rows.values()]
        .filter((r) => r.visibility === 'live')
        .filter(({ event: e }) => {
          const json = e.messageContent.eventContent?.eventJson ?? '';
          return (
            matchesTrackedMessageFilter(e, filter) &&
            matchesOneOf(e.resolutionStatus, filter.resolutionStatus) &&
            withinRange(e.updatedAt, filter.updatedAtFrom, filter.updatedAtTo) &&
            (filter.payload == null || filter.payload === '' || json.includes(filter.payload))
          );
        })
        .sort(newestFirst);
      const page = sliceOffsetPage(matching, request);
      return {
        events: page.rows.map((r) => withEventJsonStripped(clone(r.event))),
        continuationToken: page.continuationToken,
      };
    },

    async downloadEndpointStateCount(endpointId) {
      const rows = liveOn(endpointId);
      const countOf = (status: ResolutionStatus) =>
        rows.filter((r) => r.event.resolutionStatus === status).length;
      return endpointStateCount(endpointId, countOf, now(state));
    },

    async downloadEndpointSessionStateCount(endpointId, sessionId) {
      return sessionCount(endpointId, sessionId);
    },

    async downloadEndpointSessionStateCountBatch(endpointId, sessionIds) {
      return [...new Set(sessionIds)].map((s) => sessionCount(endpointId, s));
    },

    async downloadEndpointStatePaging(endpointId, pageSize, continuationToken) {
      const request = offsetPageRequest(continuationToken, pageSize);
      const actionable = liveOn(endpointId)
        .filter((r) => UNRESOLVED_STATUSES.has(r.event.resolutionStatus))
        .sort(newestFirst);
      const page = sliceOffsetPage(actionable, request);
      const events = page.rows.map((r) => clone(r.event));
      return endpointStatePage(endpointId, events, page.continuationToken, now(state));
    },

    async getBlockedEventsOnSession(endpointId, sessionId, skip, take) {
      const rows = liveOn(endpointId)
        .filter(
          (r) =>
            r.event.sessionId === sessionId && SESSION_BLOCKING_STATUSES.includes(r.event.resolutionStatus),
        )
        .sort(newestFirst);
      const from = Math.max(0, Math.floor(skip));
      const items = rows
        .slice(from, from + PaginationLimits.resolve(take))
        .map((r) => toBlockedMessageEvent(r.event));
      return { items, total: rows.length };
    },

    async getPendingEventsOnSession(endpointId) {
      return liveOn(endpointId)
        .filter((r) => r.event.resolutionStatus === ResolutionStatus.Pending)
        .sort(newestFirst)
        .map((r) => clone(r.event));
    },

    async getInvalidEventsOnSession(endpointId) {
      return liveOn(endpointId)
        .filter((r) => r.event.endpointRole === EndpointRole.Publisher)
        .sort(newestFirst)
        .map((r) => toBlockedMessageEvent(r.event));
    },

    async getEndpointErrorList(endpointId) {
      const ids = liveOn(endpointId)
        .filter((r) => ERROR_LIST_STATUSES.includes(r.event.resolutionStatus))
        .sort(newestFirst)
        .map((r) => idOf(r.event));
      return formatEndpointErrorList(ids);
    },
  };
}
