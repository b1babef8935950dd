import type { TrackedMessageFilter } from '@nimbus/message-store';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { MessagesTable, UnresolvedEventsTable } from '../schema/database.js';
import { toMs } from './document-codec.js';
import { startsWithIgnoringCase } from './query-helpers.js';

/** Columns `messages` and `unresolved_events` both have, under the same name. */
type TrackedMessageColumn = keyof MessagesTable & keyof UnresolvedEventsTable;

const ref = (column: TrackedMessageColumn) => sql.ref(column);

/** The WHERE conditions of a `TrackedMessageFilter`, for a select from either table. */
export function trackedMessageConditions(filter: TrackedMessageFilter): Expression<SqlBool>[] {
  const startsWith = (column: TrackedMessageColumn, prefix: string) => startsWithIgnoringCase(column, prefix);
  const equals = (column: TrackedMessageColumn, value: string) => sql<SqlBool>`${ref(column)} = ${value}`;
  const conditions: Expression<SqlBool>[] = [];
  if (filter.endpointId) conditions.push(startsWith('endpoint_id', filter.endpointId));
  if (filter.eventId) conditions.push(startsWith('event_id', filter.eventId));
  if (filter.sessionId) conditions.push(startsWith('session_id', filter.sessionId));
  if (filter.eventTypeId?.length) {
    conditions.push(sql<SqlBool>`${ref('event_type_id')} in (${sql.join(filter.eventTypeId)})`);
  }
  if (filter.from) conditions.push(equals('from_address', filter.from));
  if (filter.to) conditions.push(equals('to_address', filter.to));
  if (filter.messageType) conditions.push(equals('message_type', filter.messageType));
  if (filter.enqueuedAtFrom) {
    conditions.push(sql<SqlBool>`${ref('enqueued_time')} >= ${toMs(filter.enqueuedAtFrom)}`);
  }
  if (filter.enqueuedAtTo) {
    conditions.push(sql<SqlBool>`${ref('enqueued_time')} <= ${toMs(filter.enqueuedAtTo)}`);
  }
  return conditions;
}
