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

  /**
   * An event id may have rows in several sessions: the newest update wins. The rows of one key are read by the
   * unique key and ordered here: with `ORDER BY updated_at` in the statement, SQLite (no statistics) walks the
   * endpoint's `(endpoint_id, updated_at)` index instead, every row of the endpoint, which made a bulk job's
   * per-event lookup cost grow with the endpoint (8 ms at 10,000 rows, on the event loop).
   */
  async getEvent({ endpointId, eventId }: EndpointEventRef): Promise<UnresolvedEvent | null> {
    const rows = await this.live()
      .select(['updated_at', 'id'])
      .where('endpoint_id', '=', endpointId)
      .where('event_id', '=', eventId)
      .execute();
    return newestOf(rows);
  }

  async getEventById({ endpointId, id }: EventIdOnEndpoint): Promise<UnresolvedEvent | null> {
    // One read by the unique key per way the id splits (an OR of them would scan the endpoint, as above).
    const rows = [];
    for (const split of compositeIdSplits(id)) {
      rows.push(
        ...(await this.live()
          .select(['updated_at', 'id'])
          .where('endpoint_id', '=', endpointId)
          .where('event_id', '=', split.eventId)
          .where('session_id', '=', split.sessionId)
          .execute()),
      );
    }
    return newestOf(rows);
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

/** The row updated last (ties: the higher id), as the stores' `ORDER BY updated_at DESC, id DESC` picks it. */
function newestOf(
  rows: readonly { document_json: string; status: string; updated_at: number; id: number }[],
): UnresolvedEvent | null {
  let newest: (typeof rows)[number] | undefined;
  for (const row of rows) {
    const [at, newestAt] = [Number(row.updated_at), Number(newest?.updated_at)];
    if (!newest || at > newestAt || (at === newestAt && Number(row.id) > Number(newest.id))) newest = row;
  }
  return newest === undefined ? null : unresolvedFromRow(newest);
}
