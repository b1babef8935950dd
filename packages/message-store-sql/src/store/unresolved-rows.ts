import { rowFailureSignature, type UnresolvedEvent } from '@nimbus/message-store';
import type { Insertable, Selectable } from 'kysely';
import type { UnresolvedEventsTable } from '../schema/database.js';
import { decodeDocument, encodeDocument, toMs } from './document-codec.js';

export type UnresolvedRow = Selectable<UnresolvedEventsTable>;

/** Column values of a live row holding `event` (a write always revives a removed or archived row). */
export function unresolvedColumns(
  event: UnresolvedEvent,
  expiresAt: number | null,
): Insertable<UnresolvedEventsTable> {
  return {
    endpoint_id: event.endpointId,
    event_id: event.eventId,
    session_id: event.sessionId,
    status: event.resolutionStatus,
    message_type: event.messageType,
    parent_message_id: event.parentMessageId,
    last_message_id: event.lastMessageId,
    event_type_id: event.eventTypeId,
    to_address: event.to,
    from_address: event.from,
    endpoint_role: event.endpointRole,
    pending_sub_status: event.pendingSubStatus,
    external_job_id: event.externalJobId,
    updated_at: toMs(event.updatedAt),
    enqueued_time: toMs(event.enqueuedTimeUtc),
    deleted: 0,
    deleted_at: null,
    deletion_kind: null,
    expires_at: expiresAt,
    failure_signature: rowFailureSignature(event),
    document_json: encodeDocument(event),
  };
}

/** The stored entity; the status column is authoritative. */
export function unresolvedFromRow(row: Pick<UnresolvedRow, 'document_json' | 'status'>): UnresolvedEvent {
  const event = decodeDocument<UnresolvedEvent>(row.document_json);
  // Rows written before the retry state existed have no `retry`: they read as not retrying.
  return {
    ...event,
    retry: event.retry ?? null,
    resolutionStatus: row.status as UnresolvedEvent['resolutionStatus'],
  };
}
