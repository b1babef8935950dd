import {
  type EndpointEventRef,
  type EventIdOnEndpoint,
  type EventIdsOnEndpoint,
  HANDOFF_SUB_STATUS,
  type HandoffJobRef,
  type NextHandoffRequest,
  ResolutionStatus,
  type StatusLookup,
  type TrackingEventLookups,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import type { ExpressionBuilder } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';
import { chunks, compositeIdSplits } from './query-helpers.js';
import type { StoreContext } from './store-context.js';
import { unresolvedFromRow } from './unresolved-rows.js';

type UnresolvedEb = ExpressionBuilder<StoreDatabase, 'unresolved_events'>;

/** Event id equals one of the ids, or (event id, session id) is one of the composite ids' splits. */
function matchesAnyId(eb: UnresolvedEb, ids: readonly string[]) {
  const splits = ids.flatMap(compositeIdSplits);
  return eb.or([
    eb('event_id', 'in', ids),
    ...splits.map((s) => eb.and([eb('event_id', '=', s.eventId), eb('session_id', '=', s.sessionId)])),
  ]);
}

/** Single-row and small-set reads of resolver rows. Every miss is null; removed rows are invisible. */
export class EventLookups implements TrackingEventLookups {
  constructor(private readonly context: StoreContext) {}

  private live() {
    return this.context.dialect.db
      .selectFrom('unresolved_events')
      .select(['document_json', 'status'])
      .where('deleted', '=', 0);
  }

  async getEventInStatus({ key, status }: StatusLookup): Promise<UnresolvedEvent | null> {
    const row = await this.live()
      .where('endpoint_id', '=', key.endpointId)
      .where('event_id', '=', key.eventId)
      .where('session_id', '=', key.sessionId)
      .where('status', '=', status)
      .executeTakeFirst();
    return row === undefined ? null : unresolvedFromRow(row);
  }

  async getEvent({ endpointId, eventId }: EndpointEventRef): Promise<UnresolvedEvent | null> {
    const row = await this.live()
      .where('endpoint_id', '=', endpointId)
      .where('event_id', '=', eventId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : unresolvedFromRow(row);
  }

  async getEventById({ endpointId, id }: EventIdOnEndpoint): Promise<UnresolvedEvent | null> {
    const splits = compositeIdSplits(id);
    if (splits.length === 0) return null;
    const row = await this.live()
      .where('endpoint_id', '=', endpointId)
      .where((eb) =>
        eb.or(
          splits.map((s) => eb.and([eb('event_id', '=', s.eventId), eb('session_id', '=', s.sessionId)])),
        ),
      )
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : unresolvedFromRow(row);
  }

  async getEventsByIds({ endpointId, ids }: EventIdsOnEndpoint): Promise<UnresolvedEvent[]> {
    const unique = [...new Set(ids.filter((id) => id !== ''))];
    const found = new Map<number, UnresolvedEvent>();
    for (const batch of chunks(unique, 200)) {
      const rows = await this.live()
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where((eb) => matchesAnyId(eb, batch))
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      for (const row of rows) found.set(row.id, unresolvedFromRow(row));
    }
    return [...found.values()];
  }

  async getCompletedEventsOnEndpoint(endpointId: string): Promise<UnresolvedEvent[]> {
    const rows = await this.live()
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', ResolutionStatus.Completed)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(unresolvedFromRow);
  }

  private pendingHandoffs(endpointId: string) {
    return this.live()
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', ResolutionStatus.Pending)
      .where('pending_sub_status', '=', HANDOFF_SUB_STATUS);
  }

  async getPendingHandoffByExternalJobId({
    endpointId,
    externalJobId,
  }: HandoffJobRef): Promise<UnresolvedEvent | null> {
    if (externalJobId == null || externalJobId === '') return null;
    const row = await this.pendingHandoffs(endpointId)
      .where('external_job_id', '=', externalJobId)
      .orderBy('updated_at', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : unresolvedFromRow(row);
  }

  async getNextPendingHandoffEvent({
    endpointId,
    eventTypeIds,
  }: NextHandoffRequest): Promise<UnresolvedEvent | null> {
    const types = (eventTypeIds ?? []).filter((t) => t !== '');
    let query = this.pendingHandoffs(endpointId);
    if (types.length > 0) query = query.where('event_type_id', 'in', types);
    const row = await query.orderBy('enqueued_time', 'asc').orderBy('id', 'asc').executeTakeFirst();
    return row === undefined ? null : unresolvedFromRow(row);
  }
}
