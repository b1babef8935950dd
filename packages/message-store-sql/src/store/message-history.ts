import { MessageType } from '@nimbus/core';
import {
  type MessageEntity,
  type MessageEntityWrite,
  type MessageFilter,
  type MessageSearchResult,
  offsetPageRequest,
  type TrackingMessageHistory,
  toMessageEntity,
  withEventJsonStripped,
} from '@nimbus/message-store';
import { decodeDocument, encodeDocument, toMs } from './document-codec.js';
import { fetchOffsetPage } from './fetch-offset-page.js';
import { startsWithIgnoringCase } from './query-helpers.js';
import type { StoreContext } from './store-context.js';
import { trackedMessageConditions } from './tracked-message-conditions.js';

const decode = (row: { document_json: string }) => decodeDocument<MessageEntity>(row.document_json);

/** The per-message history: first write wins per (eventId, messageId). */
export class MessageHistory implements TrackingMessageHistory {
  constructor(private readonly context: StoreContext) {}

  private select() {
    return this.context.dialect.db.selectFrom('messages').select(['document_json']);
  }

  async storeMessage(write: MessageEntityWrite): Promise<boolean> {
    const message = toMessageEntity(write);
    const result = await this.context.dialect.db
      .insertInto('messages')
      .values({
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
        created_at: this.context.clock.now(),
        document_json: encodeDocument(message),
      })
      .onConflict((oc) => oc.columns(['event_id', 'message_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async getMessage(eventId: string, messageId: string): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async getEventHistory(eventId: string): Promise<MessageEntity[]> {
    const rows = await this.select()
      .where('event_id', '=', eventId)
      .orderBy('enqueued_time', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(decode);
  }

  async getLatestEventRequestMessage(eventId: string): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('message_type', 'in', [MessageType.EventRequest, MessageType.ResubmissionRequest])
      .where('has_event_json', '=', 1)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async getFailedMessage(eventId: string, endpointId: string): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', endpointId)
      .where('has_error', '=', 1)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async getDeadletteredMessage(eventId: string, endpointId: string): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', endpointId)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async removeStoredMessage(eventId: string, messageId: string): Promise<void> {
    await this.context.dialect.db
      .deleteFrom('messages')
      .where('event_id', '=', eventId)
      .where('message_id', '=', messageId)
      .execute();
  }

  async searchMessages(
    filter: MessageFilter,
    continuationToken: string | null,
    maxItemCount: number,
  ): Promise<MessageSearchResult> {
    const request = offsetPageRequest(continuationToken, maxItemCount);
    let query = this.select();
    for (const condition of trackedMessageConditions(filter)) query = query.where(condition);
    if (filter.messageId) query = query.where(startsWithIgnoringCase('message_id', filter.messageId));
    const page = await fetchOffsetPage(query.orderBy('enqueued_time', 'desc').orderBy('id', 'desc'), request);
    return {
      messages: page.rows.map((row) => withEventJsonStripped(decode(row))),
      continuationToken: page.continuationToken,
    };
  }
}
