import {
  type BlockedMessageEvent,
  type BlockedMessageEventPage,
  compositeEventId,
  EndpointRole,
  type EndpointState,
  type EndpointStateCount,
  formatEndpointErrorList,
  offsetPageRequest,
  PaginationLimits,
  ResolutionStatus,
  resolveOriginatingId,
  type SessionStateCount,
  type TrackingEndpointViews,
  UNRESOLVED_STATUSES,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { fetchOffsetPage } from './fetch-offset-page.js';
import { chunks } from './query-helpers.js';
import { nowDate, type StoreContext } from './store-context.js';
import { unresolvedFromRow } from './unresolved-rows.js';

const BLOCKING: ResolutionStatus[] = [ResolutionStatus.Pending, ResolutionStatus.Deferred];
const ACTIONABLE: ResolutionStatus[] = [...UNRESOLVED_STATUSES];

/** Operator views over an endpoint's live rows: counts, session state, paging, blocked sessions. */
export class EndpointViews implements TrackingEndpointViews {
  constructor(private readonly context: StoreContext) {}

  private live(endpointId: string) {
    return this.context.dialect.db
      .selectFrom('unresolved_events')
      .where('endpoint_id', '=', endpointId)
      .where('deleted', '=', 0);
  }

  async downloadEndpointStateCount(endpointId: string): Promise<EndpointStateCount> {
    const rows = await this.live(endpointId)
      .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    const count = (status: ResolutionStatus) => Number(rows.find((r) => r.status === status)?.count ?? 0);
    return {
      endpointId,
      pendingCount: count(ResolutionStatus.Pending),
      deferredCount: count(ResolutionStatus.Deferred),
      failedCount: count(ResolutionStatus.Failed),
      deadletterCount: count(ResolutionStatus.DeadLettered),
      unsupportedCount: count(ResolutionStatus.Unsupported),
      eventTime: nowDate(this.context),
    };
  }

  async downloadEndpointSessionStateCount(endpointId: string, sessionId: string): Promise<SessionStateCount> {
    const [result] = await this.downloadEndpointSessionStateCountBatch(endpointId, [sessionId]);
    return result!;
  }

  async downloadEndpointSessionStateCountBatch(
    endpointId: string,
    sessionIds: readonly string[],
  ): Promise<SessionStateCount[]> {
    const rows: { event_id: string; session_id: string; status: string }[] = [];
    for (const batch of chunks([...new Set(sessionIds)], 500)) {
      rows.push(
        ...(await this.live(endpointId)
          .select(['event_id', 'session_id', 'status'])
          .where('session_id', 'in', batch)
          .where('status', 'in', BLOCKING)
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .execute()),
      );
    }
    return sessionIds.map((sessionId) => {
      const mine = rows.filter((r) => r.session_id === sessionId);
      const ids = (status: ResolutionStatus) =>
        mine.filter((r) => r.status === status).map((r) => compositeEventId(r.event_id, r.session_id));
      return {
        sessionId,
        pendingEvents: ids(ResolutionStatus.Pending),
        deferredEvents: ids(ResolutionStatus.Deferred),
      };
    });
  }

  async downloadEndpointStatePaging(
    endpointId: string,
    pageSize: number,
    continuationToken: string | null,
  ): Promise<EndpointState> {
    const request = offsetPageRequest(continuationToken, pageSize);
    const page = await fetchOffsetPage(
      this.live(endpointId)
        .select(['document_json', 'status', 'event_id', 'session_id'])
        .where('status', 'in', ACTIONABLE)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc'),
      request,
    );
    const ids = (status: ResolutionStatus) =>
      page.rows.filter((r) => r.status === status).map((r) => compositeEventId(r.event_id, r.session_id));
    return {
      endpointId,
      continuationToken: page.continuationToken,
      enrichedUnresolvedEvents: page.rows.map(unresolvedFromRow),
      pendingEvents: ids(ResolutionStatus.Pending),
      failedEvents: ids(ResolutionStatus.Failed),
      deferredEvents: ids(ResolutionStatus.Deferred),
      deadletteredEvents: ids(ResolutionStatus.DeadLettered),
      unsupportedEvents: ids(ResolutionStatus.Unsupported),
      eventTime: nowDate(this.context),
    };
  }

  async getBlockedEventsOnSession(
    endpointId: string,
    sessionId: string,
    skip: number,
    take: number,
  ): Promise<BlockedMessageEventPage> {
    const blocked = () =>
      this.live(endpointId).where('session_id', '=', sessionId).where('status', 'in', BLOCKING);
    const totalRow = await blocked()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirst();
    const rows = await blocked()
      .select(['document_json', 'status'])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PaginationLimits.resolve(take))
      .offset(Math.max(0, Math.floor(skip) || 0))
      .execute();
    return { items: rows.map((r) => toBlocked(unresolvedFromRow(r))), total: Number(totalRow?.total ?? 0) };
  }

  async getPendingEventsOnSession(endpointId: string): Promise<UnresolvedEvent[]> {
    const rows = await this.live(endpointId)
      .select(['document_json', 'status'])
      .where('status', '=', ResolutionStatus.Pending)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(unresolvedFromRow);
  }

  async getInvalidEventsOnSession(endpointId: string): Promise<BlockedMessageEvent[]> {
    const rows = await this.live(endpointId)
      .select(['document_json', 'status'])
      .where('endpoint_role', '=', EndpointRole.Publisher)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => toBlocked(unresolvedFromRow(r)));
  }

  async getEndpointErrorList(endpointId: string): Promise<string> {
    const rows = await this.live(endpointId)
      .select(['event_id', 'session_id'])
      .where('status', 'in', [ResolutionStatus.Failed, ResolutionStatus.Deferred])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return formatEndpointErrorList(rows.map((r) => compositeEventId(r.event_id, r.session_id)));
  }
}

function toBlocked(event: UnresolvedEvent): BlockedMessageEvent {
  return {
    originatingId: resolveOriginatingId(event.originatingMessageId, event.lastMessageId),
    eventId: event.eventId,
    status: event.resolutionStatus,
  };
}
