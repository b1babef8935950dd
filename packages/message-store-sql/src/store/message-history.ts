import { MessageType } from '@nimbus/core';
import type {
  EndpointEventRef,
  MessageEntity,
  MessageEntityWrite,
  MessageRef,
  MessageSearchRequest,
  MessageSearchResult,
  TrackingMessageHistory,
} from '@nimbus/message-store';
import { offsetPageRequest, withEventJsonStripped } from '@nimbus/message-store/provider';
import type { StoreDb } from '../dialect/sql-dialect.js';
import { decodeDocument } from './document-codec.js';
import { fetchOffsetPage } from './fetch-offset-page.js';
import { insertMessages } from './message-rows.js';
import { startsWithIgnoringCase } from './query-helpers.js';
import type { StoreContext } from './store-context.js';
import { trackedMessageConditions } from './tracked-message-conditions.js';

const decode = (row: { document_json: string }) => decodeDocument<MessageEntity>(row.document_json);

/** One history record, read on any connection or transaction of the store's database. */
export async function readMessage(
  db: StoreDb,
  { eventId, messageId }: MessageRef,
): Promise<MessageEntity | null> {
  const row = await db
    .selectFrom('messages')
    .select(['document_json'])
    .where('event_id', '=', eventId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return row === undefined ? null : decode(row);
}

/** An event's history in the order it was written. */
export async function readEventHistory(db: StoreDb, eventId: string): Promise<MessageEntity[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['document_json'])
    .where('event_id', '=', eventId)
    .orderBy('enqueued_time', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(decode);
}

/** The per-message history: first write wins per (eventId, messageId). */
export class MessageHistory implements TrackingMessageHistory {
  constructor(private readonly context: StoreContext) {}

  private select() {
    return this.context.dialect.db.selectFrom('messages').select(['document_json']);
  }

  async storeMessage(write: MessageEntityWrite): Promise<boolean> {
    const [stored] = await insertMessages(this.context.dialect.db, this.context, [write]);
    return stored!;
  }

  storeMessages(writes: readonly MessageEntityWrite[]): Promise<boolean[]> {
    return insertMessages(this.context.dialect.db, this.context, writes);
  }

  getMessage(ref: MessageRef): Promise<MessageEntity | null> {
    return readMessage(this.context.dialect.db, ref);
  }

  getEventHistory(eventId: string): Promise<MessageEntity[]> {
    return readEventHistory(this.context.dialect.db, eventId);
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

  async getFailedMessage({ eventId, endpointId }: EndpointEventRef): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', endpointId)
      .where('has_error', '=', 1)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async getDeadletteredMessage({ eventId, endpointId }: EndpointEventRef): Promise<MessageEntity | null> {
    const row = await this.select()
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', endpointId)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : decode(row);
  }

  async removeStoredMessage({ eventId, messageId }: MessageRef): Promise<void> {
    await this.context.dialect.db
      .deleteFrom('messages')
      .where('event_id', '=', eventId)
      .where('message_id', '=', messageId)
      .execute();
  }

  async searchMessages({
    filter,
    continuationToken = null,
    maxItems: maxItemCount,
  }: MessageSearchRequest): Promise<MessageSearchResult> {
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
