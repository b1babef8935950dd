import {
  type BlockedMessageEventPage,
  type EndpointPageRequest,
  EndpointRole,
  type EndpointState,
  type EndpointStateCount,
  ResolutionStatus,
  type SessionPageRequest,
  type SessionRef,
  type SessionStateCount,
  type SessionsRef,
  type TrackingEndpointViews,
  UNRESOLVED_STATUSES,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import {
  compositeEventId,
  ERROR_LIST_STATUSES,
  endpointStateCount,
  endpointStatePage,
  formatEndpointErrorList,
  PaginationLimits,
  SESSION_BLOCKING_STATUSES,
  sessionStateCount,
  toBlockedMessageEvent,
} from '@nimbus/message-store/provider';
import { EndpointRows } from './endpoint-rows.js';
import { afterCursor, rowsWanted, seqPageOf, seqPageRequest } from './seq-keyset.js';
import { fromTrackingDocument } from './tracking-document.js';

const STATUSES_COUNTED = [
  ResolutionStatus.Pending,
  ResolutionStatus.Deferred,
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
] as const;

/** Operator views of one endpoint container. Counts are one `COUNT` query per status (no GROUP BY). */
export class CosmosEndpointViews extends EndpointRows implements TrackingEndpointViews {
  async downloadEndpointStateCount(endpointId: string): Promise<EndpointStateCount> {
    const counts = new Map<ResolutionStatus, number>();
    for (const status of STATUSES_COUNTED) {
      counts.set(status, await this.countLive(endpointId, (w) => w.equals('c.resolutionStatus', status)));
    }
    return endpointStateCount(endpointId, (s) => counts.get(s) ?? 0, this.context.now());
  }

  async downloadEndpointSessionStateCount({ endpointId, sessionId }: SessionRef): Promise<SessionStateCount> {
    return sessionStateCount(sessionId, await this.#blockingRows(endpointId, sessionId));
  }

  async downloadEndpointSessionStateCountBatch({
    endpointId,
    sessionIds,
  }: SessionsRef): Promise<SessionStateCount[]> {
    const result: SessionStateCount[] = [];
    for (const sessionId of new Set(sessionIds)) {
      result.push(await this.downloadEndpointSessionStateCount({ endpointId, sessionId }));
    }
    return result;
  }

  async downloadEndpointStatePaging({
    endpointId,
    pageSize,
    continuationToken = null,
  }: EndpointPageRequest): Promise<EndpointState> {
    const request = seqPageRequest(continuationToken, pageSize);
    const docs = await this.liveDocuments(
      endpointId,
      (w) =>
        afterCursor(
          w.oneOf('c.resolutionStatus', [...UNRESOLVED_STATUSES]),
          request.cursor,
          request.cursor?.seen ?? [],
        ),
      rowsWanted(request),
    );
    const page = seqPageOf(docs, request, (doc) => doc.id);
    const rows = page.rows.map(fromTrackingDocument);
    return endpointStatePage(endpointId, rows, page.continuationToken, this.context.now());
  }

  async getBlockedEventsOnSession({
    endpointId,
    sessionId,
    skip,
    take,
  }: SessionPageRequest): Promise<BlockedMessageEventPage> {
    const rows = await this.#blockingRows(endpointId, sessionId);
    const from = Math.max(0, Math.floor(skip));
    const items = rows.slice(from, from + PaginationLimits.resolve(take)).map(toBlockedMessageEvent);
    return { items, total: rows.length };
  }

  async getPendingEventsOnSession(endpointId: string): Promise<UnresolvedEvent[]> {
    return this.live(endpointId, (w) => w.equals('c.resolutionStatus', ResolutionStatus.Pending));
  }

  async getInvalidEventsOnSession(endpointId: string) {
    const rows = await this.live(endpointId, (w) => w.equals('c.endpointRole', EndpointRole.Publisher));
    return rows.map(toBlockedMessageEvent);
  }

  async getEndpointErrorList(endpointId: string): Promise<string> {
    const rows = await this.live(endpointId, (w) => w.oneOf('c.resolutionStatus', ERROR_LIST_STATUSES));
    return formatEndpointErrorList(rows.map((r) => compositeEventId(r.eventId, r.sessionId)));
  }

  /** The session's Pending and Deferred rows, newest first: one query inside the session's partition. */
  #blockingRows(endpointId: string, sessionId: string): Promise<UnresolvedEvent[]> {
    return this.live(endpointId, (w) =>
      w.equals('c.sessionId', sessionId).oneOf('c.resolutionStatus', SESSION_BLOCKING_STATUSES),
    );
  }
}
