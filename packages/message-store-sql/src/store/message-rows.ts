import type { MessageEntityWrite } from '@nimbus/message-store';
import {
  assertValidStoreEndpointId,
  requireNonEmptyString,
  toMessageEntity,
} from '@nimbus/message-store/provider';
import type { StoreDb } from '../dialect/sql-dialect.js';
import { encodeDocument, toMs } from './document-codec.js';
import { chunks } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

/** Rows per insert statement (15 columns each). */
const ROWS_PER_STATEMENT = 500;

const keyOf = (eventId: string, messageId: string) => `${eventId}\u0000${messageId}`;

/**
 * Appends history records with one multi-row insert per 500: first write wins per (eventId, messageId),
 * so a record that already exists (or repeats earlier in the same call) is left alone and reported false.
 */
export async function insertMessages(
  db: StoreDb,
  context: Pick<StoreContext, 'clock'>,
  writes: readonly MessageEntityWrite[],
): Promise<boolean[]> {
  for (const write of writes) {
    requireNonEmptyString('eventId', write.eventId);
    requireNonEmptyString('messageId', write.messageId);
    assertValidStoreEndpointId(write.endpointId);
  }
  if (writes.length === 0) return [];
  const createdAt = context.clock.now();
  const inserted = new Set<string>();
  for (const part of chunks(writes, ROWS_PER_STATEMENT)) {
    const rows = part.map((write) => {
      const message = toMessageEntity(write);
      return {
        event_id: message.eventId,
        message_id: message.messageId,
        endpoint_id: message.endpointId,
        session_id: message.sessionId,
        message_type: message.messageType,
        event_type_id: message.eventTypeId,
        from_address: message.from,
        to_address: message.to,
        enqueued_time: toMs(message.enqueuedTimeUtc),
        queue_time_ms: message.queueTimeMs,
        processing_time_ms: message.processingTimeMs,
        has_error: message.messageContent.errorContent === null ? 0 : 1,
        has_event_json: message.messageContent.eventContent?.eventJson ? 1 : 0,
        created_at: createdAt,
        document_json: encodeDocument(message),
      };
    });
    const returned = await db
      .insertInto('messages')
      .values(rows)
      .onConflict((oc) => oc.columns(['event_id', 'message_id']).doNothing())
      .returning(['event_id', 'message_id'])
      .execute();
    for (const r of returned) inserted.add(keyOf(r.event_id, r.message_id));
  }
  // Only the first occurrence of a key inside this call can be the one that was inserted.
  return writes.map((w) => inserted.delete(keyOf(w.eventId, w.messageId)));
}
