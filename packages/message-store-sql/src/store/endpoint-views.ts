import type {
  BlockedMessageEvent,
  BlockedMessageEventPage,
  EndpointPageRequest,
  EndpointState,
  EndpointStateCount,
  SessionPageRequest,
  SessionRef,
  SessionStateCount,
  SessionsRef,
  TrackingEndpointViews,
  UnresolvedEvent,
} from '@nimbus/message-store';
import { EndpointRole, ResolutionStatus, UNRESOLVED_STATUSES } from '@nimbus/message-store';
import {
  compositeEventId,
  ERROR_LIST_STATUSES,
  endpointStateCount,
  endpointStatePage,
  formatEndpointErrorList,
  offsetPageRequest,
  PaginationLimits,
  SESSION_BLOCKING_STATUSES,
  sessionStateCount,
  toBlockedMessageEvent,
} from '@nimbus/message-store/provider';
import { fetchOffsetPage } from './fetch-offset-page.js';
import { chunks } from './query-helpers.js';
import { readStatusCounts } from './status-counts.js';
import { nowDate, type StoreContext } from './store-context.js';
import { unresolvedFromRow } from './unresolved-rows.js';

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

  /** Index reads of the maintained counts (kept by triggers, see `readStatusCounts`), not a scan. */
  async downloadEndpointStateCount(endpointId: string): Promise<EndpointStateCount> {
    const counts = await readStatusCounts(this.context.dialect.db, endpointId);
    const countOf = (status: ResolutionStatus) => counts.get(status) ?? 0;
    return endpointStateCount(endpointId, countOf, nowDate(this.context));
  }

  async downloadEndpointSessionStateCount({ endpointId, sessionId }: SessionRef): Promise<SessionStateCount> {
    const [result] = await this.downloadEndpointSessionStateCountBatch({
      endpointId,
      sessionIds: [sessionId],
    });
    return result!;
  }

  async downloadEndpointSessionStateCountBatch({
    endpointId,
    sessionIds,
  }: SessionsRef): Promise<SessionStateCount[]> {
    const rows: { event_id: string; session_id: string; status: string }[] = [];
    for (const batch of chunks([...new Set(sessionIds)], 500)) {
      rows.push(
        ...(await this.live(endpointId)
          .select(['event_id', 'session_id', 'status'])
          .where('session_id', 'in', batch)
          .where('status', 'in', SESSION_BLOCKING_STATUSES)
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .execute()),
      );
    }
    const statuses = rows.map((r) => ({
      eventId: r.event_id,
      sessionId: r.session_id,
      resolutionStatus: r.status,
    }));
    return sessionIds.map((sessionId) =>
      sessionStateCount(
        sessionId,
        statuses.filter((r) => r.sessionId === sessionId),
      ),
    );
  }

  async downloadEndpointStatePaging({
    endpointId,
    pageSize,
    continuationToken = null,
  }: EndpointPageRequest): Promise<EndpointState> {
    const request = offsetPageRequest(continuationToken, pageSize);
    const page = await fetchOffsetPage(
      this.live(endpointId)
        .select(['document_json', 'status'])
        .where('status', 'in', ACTIONABLE)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc'),
      request,
    );
    return endpointStatePage(
      endpointId,
      page.rows.map(unresolvedFromRow),
      page.continuationToken,
      nowDate(this.context),
    );
  }

  async getBlockedEventsOnSession({
    endpointId,
    sessionId,
    skip,
    take,
  }: SessionPageRequest): Promise<BlockedMessageEventPage> {
    const blocked = () =>
      this.live(endpointId)
        .where('session_id', '=', sessionId)
        .where('status', 'in', SESSION_BLOCKING_STATUSES);
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
    return {
      items: rows.map((r) => toBlockedMessageEvent(unresolvedFromRow(r))),
      total: Number(totalRow?.total ?? 0),
    };
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
    return rows.map((r) => toBlockedMessageEvent(unresolvedFromRow(r)));
  }

  async getEndpointErrorList(endpointId: string): Promise<string> {
    const rows = await this.live(endpointId)
      .select(['event_id', 'session_id'])
      .where('status', 'in', ERROR_LIST_STATUSES)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return formatEndpointErrorList(rows.map((r) => compositeEventId(r.event_id, r.session_id)));
  }
}
