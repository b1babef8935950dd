import type { TrackingEndpointViews } from '../contracts/message-tracking-store.js';
import { formatEndpointErrorList } from '../endpoint-error-list.js';
import {
  ERROR_LIST_STATUSES,
  endpointStateCount,
  endpointStatePage,
  SESSION_BLOCKING_STATUSES,
  sessionStateCount,
  toBlockedMessageEvent,
} from '../endpoint-summaries.js';
import { EndpointRole, ResolutionStatus, UNRESOLVED_STATUSES } from '../enums.js';
import { offsetPageRequest, sliceOffsetPage } from '../offset-paging.js';
import { PaginationLimits } from '../pagination.js';
import { compositeIdOf as idOf, liveRowsOn, newestFirst } from './live-rows.js';
import { clone, type MemoryState, now } from './state.js';

export function createEndpointViews(state: MemoryState): TrackingEndpointViews {
  const liveOn = (endpointId: string) => liveRowsOn(state, endpointId);

  const sessionCount = (endpointId: string, sessionId: string) =>
    sessionStateCount(
      sessionId,
      liveOn(endpointId)
        .filter((r) => r.event.sessionId === sessionId)
        .sort(newestFirst)
        .map((r) => r.event),
    );

  return {
    async downloadEndpointStateCount(endpointId) {
      const rows = liveOn(endpointId);
      const countOf = (status: ResolutionStatus) =>
        rows.filter((r) => r.event.resolutionStatus === status).length;
      return endpointStateCount(endpointId, countOf, now(state));
    },

    async downloadEndpointSessionStateCount({ endpointId, sessionId }) {
      return sessionCount(endpointId, sessionId);
    },

    async downloadEndpointSessionStateCountBatch({ endpointId, sessionIds }) {
      return [...new Set(sessionIds)].map((s) => sessionCount(endpointId, s));
    },

    async downloadEndpointStatePaging({ endpointId, pageSize, continuationToken }) {
      const request = offsetPageRequest(continuationToken ?? null, pageSize);
      const actionable = liveOn(endpointId)
        .filter((r) => UNRESOLVED_STATUSES.has(r.event.resolutionStatus))
        .sort(newestFirst);
      const page = sliceOffsetPage(actionable, request);
      const events = page.rows.map((r) => clone(r.event));
      return endpointStatePage(endpointId, events, page.continuationToken, now(state));
    },

    async getBlockedEventsOnSession({ endpointId, sessionId, skip, take }) {
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
