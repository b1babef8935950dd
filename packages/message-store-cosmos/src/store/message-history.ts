import { MessageType } from '@nimbus/core';
import {
  type EndpointEventRef,
  FIXED_RETENTION_MS,
  type MessageEntity,
  type MessageEntityWrite,
  type MessageRef,
  type MessageSearchRequest,
  type MessageSearchResult,
  type TrackingMessageHistory,
} from '@nimbus/message-store';
import {
  assertValidStoreEndpointId,
  requireNonEmptyString,
  toMessageEntity,
  withEventJsonStripped,
} from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { isCosmosStatus } from './cosmos-errors.js';
import { encodeId } from './layout.js';
import { fromMessageDocument, type MessageDocument, toMessageDocument } from './message-document.js';
import { afterCursor, rowsWanted, seqPageOf, seqPageRequest } from './seq-keyset.js';
import { Where } from './where.js';

const REQUESTS_WITH_PAYLOAD = [MessageType.EventRequest, MessageType.ResubmissionRequest];

/** The per-message history: one document per (eventId, messageId), partitioned by event. */
export class CosmosMessageHistory implements TrackingMessageHistory {
  constructor(private readonly context: CosmosStoreContext) {}

  get #messages() {
    return this.context.container('messages');
  }

  async #ofEvent(eventId: string, build: (w: Where) => Where, order: 'ASC' | 'DESC', top?: number) {
    const where = build(new Where().equals('c.eventId', eventId));
    const topClause = top === undefined ? '' : `TOP ${where.value(top)} `;
    const docs = await queryAll<MessageDocument>(
      this.#messages,
      `SELECT ${topClause}* FROM c ${where} ORDER BY c.seq ${order}`,
      where.parameters,
    );
    return docs.map(fromMessageDocument);
  }

  async storeMessages(messages: readonly MessageEntityWrite[]): Promise<boolean[]> {
    for (const message of messages) this.assertStorable(message);
    const stored: boolean[] = [];
    for (const message of messages) stored.push(await this.storeMessage(message));
    return stored;
  }

  /** Throws the argument error `storeMessage` would throw, before anything is written. */
  assertStorable(message: MessageEntityWrite): void {
    requireNonEmptyString('eventId', message.eventId);
    requireNonEmptyString('messageId', message.messageId);
    assertValidStoreEndpointId(message.endpointId);
  }

  async storeMessage(message: MessageEntityWrite): Promise<boolean> {
    this.assertStorable(message);
    const at = this.context.clock.now();
    const entity = toMessageEntity(message);
    // Ordered by enqueued time, ties by write order.
    const seq = this.context.nextSeq(entity.enqueuedTimeUtc);
    const doc = toMessageDocument(
      entity,
      seq,
      FIXED_RETENTION_MS.messages / 1000,
      at + FIXED_RETENTION_MS.messages,
    );
    try {
      await this.#messages.items.create(doc);
      return true;
    } catch (error) {
      if (isCosmosStatus(error, 409)) return false;
      throw error;
    }
  }

  async getMessage({ eventId, messageId }: MessageRef): Promise<MessageEntity | null> {
    if (!eventId || !messageId) return null;
    const { resource } = await this.#messages.item(encodeId(messageId), eventId).read<MessageDocument>();
    return resource === undefined ? null : fromMessageDocument(resource);
  }

  async getEventHistory(eventId: string): Promise<MessageEntity[]> {
    return this.#ofEvent(eventId, (w) => w, 'ASC');
  }

  async getLatestEventRequestMessage(eventId: string): Promise<MessageEntity | null> {
    const [found] = await this.#ofEvent(
      eventId,
      (w) =>
        w
          .oneOf('c.messageType', REQUESTS_WITH_PAYLOAD)
          .raw(
            "IS_STRING(c.messageContent.eventContent.eventJson) AND c.messageContent.eventContent.eventJson != ''",
          ),
      'DESC',
      1,
    );
    return found ?? null;
  }

  async getFailedMessage({ eventId, endpointId }: EndpointEventRef): Promise<MessageEntity | null> {
    const [found] = await this.#ofEvent(
      eventId,
      (w) =>
        w
          .equals('c.endpointId', endpointId)
          .raw('IS_DEFINED(c.messageContent.errorContent) AND NOT IS_NULL(c.messageContent.errorContent)'),
      'DESC',
      1,
    );
    return found ?? null;
  }

  async getDeadletteredMessage({ eventId, endpointId }: EndpointEventRef): Promise<MessageEntity | null> {
    const [found] = await this.#ofEvent(eventId, (w) => w.equals('c.endpointId', endpointId), 'DESC', 1);
    return found ?? null;
  }

  async removeStoredMessage({ eventId, messageId }: MessageRef): Promise<void> {
    if (!eventId || !messageId) return;
    try {
      await this.#messages.item(encodeId(messageId), eventId).delete();
    } catch (error) {
      if (!isCosmosStatus(error, 404)) throw error;
    }
  }

  /** Cross-partition: the first `size + 1` matches after the token's cursor, newest first (keyset). */
  async searchMessages({
    filter,
    continuationToken = null,
    maxItems: maxItemCount,
  }: MessageSearchRequest): Promise<MessageSearchResult> {
    const request = seqPageRequest(continuationToken, maxItemCount);
    const where = new Where()
      .prefix('c.endpointId', filter.endpointId)
      .prefix('c.eventId', filter.eventId)
      .prefix('c.messageId', filter.messageId)
      .prefix('c.sessionId', filter.sessionId)
      .oneOf('c.eventTypeId', filter.eventTypeId)
      .equalsIfGiven('c["from"]', filter.from)
      .equalsIfGiven('c["to"]', filter.to)
      .equalsIfGiven('c.messageType', filter.messageType)
      .between('c.enqueuedTimeUtc', filter.enqueuedAtFrom, filter.enqueuedAtTo);
    afterCursor(where, request.cursor, request.cursor?.seen ?? []);
    const top = where.value(rowsWanted(request));
    const docs = await queryAll<MessageDocument>(
      this.#messages,
      `SELECT TOP ${top} * FROM c ${where} ORDER BY c.seq DESC`,
      where.parameters,
    );
    const page = seqPageOf(docs, request, (doc) => doc.id);
    return {
      messages: page.rows.map((doc) => withEventJsonStripped(fromMessageDocument(doc))),
      continuationToken: page.continuationToken,
    };
  }
}
