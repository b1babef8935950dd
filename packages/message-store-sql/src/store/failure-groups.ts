import {
  type FailureGroup,
  type FailureGroupRequest,
  ResolutionStatus,
  type TrackingFailureGroups,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { sortFailureGroups, splitFailureSignature } from '@nimbus/message-store/provider';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';
import { decodeDocument } from './document-codec.js';
import { chunks } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

type RowsQuery = SelectQueryBuilder<StoreDatabase, 'unresolved_events', object>;

/**
 * The grouped read over the stamped `failure_signature` column (partial index on the live rows that have
 * one): one GROUP BY for the counts, one DISTINCT for endpoints and event types, and one window query that
 * picks each group's newest row for its example error text.
 */
export class SqlFailureGroups implements TrackingFailureGroups {
  constructor(private readonly context: StoreContext) {}

  async getFailureGroups({
    endpointIds = null,
    acrossEndpoints = false,
    signature = null,
  }: FailureGroupRequest): Promise<FailureGroup[]> {
    if (endpointIds !== null && endpointIds.length === 0) return [];
    const { db } = this.context.dialect;
    const rows = (): RowsQuery => {
      let query = db
        .selectFrom('unresolved_events')
        .where('deleted', '=', 0)
        .where('failure_signature', 'is not', null);
      if (endpointIds !== null) query = query.where('endpoint_id', 'in', [...endpointIds]);
      if (signature) query = query.where('failure_signature', '=', signature);
      return query;
    };
    const keyOf = (row: { failure_signature: string | null; endpoint_id: string }) =>
      acrossEndpoints ? String(row.failure_signature) : `${row.endpoint_id}\u0000${row.failure_signature}`;
    const groupColumns = acrossEndpoints
      ? (['failure_signature'] as const)
      : (['failure_signature', 'endpoint_id'] as const);

    const counted = await rows()
      .select((eb) => [
        'failure_signature',
        acrossEndpoints ? sql<string>`min(endpoint_id)`.as('endpoint_id') : 'endpoint_id',
        eb.fn.countAll<number>().as('events'),
        sql<number>`count(distinct session_id)`.as('sessions'),
        sql<number>`sum(case when status = ${ResolutionStatus.Failed} then 1 else 0 end)`.as('failed'),
        eb.fn.min('updated_at').as('first_seen'),
        eb.fn.max('updated_at').as('last_seen'),
      ])
      .groupBy([...groupColumns])
      .execute();
    const members = await rows()
      .select(['failure_signature', 'endpoint_id', 'event_type_id'])
      .distinct()
      .execute();
    const partition = acrossEndpoints ? sql`failure_signature` : sql`failure_signature, endpoint_id`;
    // Ranked on ids only; the documents are read for the one newest row of each group.
    const newestIds = await db
      .selectFrom(
        rows()
          .select([
            'id',
            sql<number>`row_number() over (partition by ${partition} order by updated_at desc, id desc)`.as(
              'rank',
            ),
          ])
          .as('ranked'),
      )
      .select('id')
      .where('rank', '=', 1)
      .execute();
    const newest = [];
    for (const part of chunks(
      newestIds.map((r) => r.id),
      500,
    )) {
      newest.push(
        ...(await db
          .selectFrom('unresolved_events')
          .select(['failure_signature', 'endpoint_id', 'document_json'])
          .where('id', 'in', part)
          .execute()),
      );
    }

    const endpointsOf = new Map<string, Set<string>>();
    const eventTypesOf = new Map<string, Set<string>>();
    for (const m of members) {
      const key = keyOf(m);
      endpointsOf.set(key, (endpointsOf.get(key) ?? new Set()).add(m.endpoint_id));
      if (m.event_type_id !== null)
        eventTypesOf.set(key, (eventTypesOf.get(key) ?? new Set()).add(m.event_type_id));
    }
    const exampleOf = new Map<string, string | null>();
    for (const n of newest) {
      const event = decodeDocument<UnresolvedEvent>(n.document_json);
      exampleOf.set(
        keyOf(n),
        event.messageContent.errorContent?.errorText ?? event.deadLetterErrorDescription ?? null,
      );
    }
    return sortFailureGroups(
      counted.map((c) => {
        const key = keyOf(c);
        const events = Number(c.events);
        const failed = Number(c.failed);
        const sig = String(c.failure_signature);
        return {
          signature: sig,
          ...splitFailureSignature(sig),
          endpointIds: [...(endpointsOf.get(key) ?? [])].sort(),
          eventCount: events,
          sessionCount: Number(c.sessions),
          failedCount: failed,
          deadLetteredCount: events - failed,
          eventTypeIds: [...(eventTypesOf.get(key) ?? [])].sort(),
          firstSeen: new Date(Number(c.first_seen)),
          lastSeen: new Date(Number(c.last_seen)),
          exampleErrorText: exampleOf.get(key) ?? null,
        };
      }),
    );
  }
}
