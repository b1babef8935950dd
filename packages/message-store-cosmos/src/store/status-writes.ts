import type { Container } from '@azure/cosmos';
import {
  FIXED_RETENTION_MS,
  type PendingCompletion,
  type PurgeScope,
  ResolutionStatus,
  type StatusWrite,
  TERMINAL_STATUSES,
  type TrackedEventKey,
  type TrackingBatch,
  type TrackingBatchResult,
  type TrackingMessageHistory,
  type TrackingRowLifecycle,
  type TrackingStatusWrites,
  type UnresolvedEventWrite,
} from '@nimbus/message-store';
import {
  assertValidStatusWriteKey,
  decideStatusWrite,
  redeliveredStatusWrites,
  type StatusWriteKey,
  toUnresolvedEvent,
  writeLeavingOutRedelivered,
} from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { isCosmosStatus, isLostWriteRace, LostWriteRaceError } from './cosmos-errors.js';
import { trackingDocumentId } from './layout.js';
import type { CosmosMessageHistory } from './message-history.js';
import { stampFor, statusRetention } from './retention-stamp.js';
import { type RowVisibility, type TrackingDocument, toTrackingDocument } from './tracking-document.js';

async function pointRead(container: Container, key: StatusWriteKey): Promise<TrackingDocument | null> {
  const { resource } = await container
    .item(trackingDocumentId(key.eventId, key.sessionId), key.sessionId)
    .read<TrackingDocument>();
  return resource ?? null;
}

/**
 * Status writes. Terminal outcomes are unguarded, so they are one upsert. Pending and Deferred writes
 * read the row (point read), ask `decideStatusWrite`, and replace it only if its etag is unchanged
 * (`IfMatch`); a 412 there, or a 409 on the first create, means another writer got in between: that is
 * thrown (`LostWriteRaceError`, retryable), never reported as a refusal.
 */
/** How often a guarded write re-reads after losing the etag race before giving up. */
const MAX_WRITE_RACES = 5;
/** Keys `writeStatuses` writes at once. */
const WRITE_CONCURRENCY = 16;

export class CosmosStatusWrites implements TrackingStatusWrites, TrackingRowLifecycle {
  constructor(
    private readonly context: CosmosStoreContext,
    private readonly history: Pick<CosmosMessageHistory, 'storeMessages' | 'getMessage' | 'assertStorable'>,
  ) {}

  async writeStatus({ key, status, content }: StatusWrite): Promise<boolean> {
    assertValidStatusWriteKey(key);
    return this.#write(key, status, content);
  }

  /**
   * Cosmos DB has no transaction across partitions: each row is guarded and written on its own. Writes of
   * one key apply in the given order; different keys are written concurrently, a few at a time.
   */
  async writeStatuses(writes: readonly StatusWrite[]): Promise<boolean[]> {
    for (const write of writes) assertValidStatusWriteKey(write.key);
    const written: boolean[] = new Array(writes.length).fill(false);
    const byKey = new Map<string, number[]>();
    writes.forEach(({ key }, i) => {
      const id = `${key.endpointId}\u0000${key.sessionId}\u0000${key.eventId}`;
      byKey.set(id, [...(byKey.get(id) ?? []), i]);
    });
    const queues = [...byKey.values()];
    const worker = async () => {
      for (let queue = queues.shift(); queue !== undefined; queue = queues.shift()) {
        for (const i of queue) {
          const { key, status, content } = writes[i]!;
          written[i] = await this.#write(key, status, content);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, queues.length) }, worker));
    return written;
  }

  async writeBatch({ messages = [], statuses = [] }: TrackingBatch): Promise<TrackingBatchResult> {
    for (const write of statuses) assertValidStatusWriteKey(write.key);
    for (const message of messages) this.history.assertStorable(message);
    // No transaction here: the statuses go first and the history records after, so a record that exists means its
    // status was written; a redelivered copy (its record already there) does not wind the row back again.
    const recorded = await Promise.all(messages.map((m) => this.history.getMessage(m)));
    const redelivered = redeliveredStatusWrites(
      messages,
      recorded.map((r) => r === null),
      statuses,
    );
    const statusesWritten = await writeLeavingOutRedelivered(statuses, redelivered, (fresh) =>
      this.writeStatuses(fresh),
    );
    const messagesStored = await this.history.storeMessages(messages);
    return { messagesStored, statusesWritten };
  }

  #document(key: StatusWriteKey, status: ResolutionStatus, content: UnresolvedEventWrite): TrackingDocument {
    const at = this.context.now();
    const event = toUnresolvedEvent(key, status, content, at);
    return toTrackingDocument(
      event,
      'live',
      this.context.nextSeq(at),
      statusRetention(status, this.context.retention, at),
    );
  }

  /** Guarded write; losing the etag race to another writer means deciding again against what it wrote. */
  async #write(
    key: StatusWriteKey,
    status: ResolutionStatus,
    content: UnresolvedEventWrite,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#writeOnce(key, status, content);
      } catch (error) {
        if (!isLostWriteRace(error) || attempt >= MAX_WRITE_RACES) throw error;
      }
    }
  }

  async #writeOnce(
    key: StatusWriteKey,
    status: ResolutionStatus,
    content: UnresolvedEventWrite,
  ): Promise<boolean> {
    const doc = this.#document(key, status, content);
    const container = await this.context.endpointContainerForWrite(key.endpointId);
    if (TERMINAL_STATUSES.has(status)) {
      await container.items.upsert(doc);
    } else {
      const current = await pointRead(container, key);
      const guarded = current === null || current.visibility !== 'live' ? null : current;
      if (decideStatusWrite(guarded, doc) === 'refuse') return false;
      await this.#replaceOrCreate(container, key, current, doc);
    }
    return true;
  }

  async #replaceOrCreate(
    container: Container,
    key: StatusWriteKey,
    current: TrackingDocument | null,
    doc: TrackingDocument,
  ): Promise<void> {
    const what = `The ${doc.resolutionStatus} write of event '${key.eventId}' on '${key.endpointId}'`;
    try {
      if (current === null) await container.items.create(doc);
      else
        await container
          .item(doc.id, key.sessionId)
          .replace(doc, { accessCondition: { type: 'IfMatch', condition: current._etag ?? '' } });
    } catch (error) {
      if (isCosmosStatus(error, 412) || isCosmosStatus(error, 409))
        throw new LostWriteRaceError(what, { cause: error });
      throw error;
    }
  }

  async tryCompletePending({ key, expectedLastMessageId, content }: PendingCompletion): Promise<boolean> {
    const { endpointId, sessionId } = key;
    assertValidStatusWriteKey(key);
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return false;
    const current = await pointRead(container, key);
    if (current === null || current.visibility !== 'live') return false;
    if (current.resolutionStatus !== ResolutionStatus.Pending) return false;
    if (current.lastMessageId !== (expectedLastMessageId ?? null)) return false;
    const doc = this.#document(key, ResolutionStatus.Completed, content);
    try {
      await container
        .item(doc.id, sessionId)
        .replace(doc, { accessCondition: { type: 'IfMatch', condition: current._etag ?? '' } });
    } catch (error) {
      if (isCosmosStatus(error, 412)) return false;
      throw error;
    }
    return true;
  }

  async removeMessage({ endpointId, eventId, sessionId }: TrackedEventKey): Promise<boolean> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return false;
    const current = await pointRead(container, { eventId, sessionId, endpointId });
    if (current === null || current.visibility !== 'live') return false;
    await this.#hide(container, current, 'removed', FIXED_RETENTION_MS.softDeletedRows);
    return true;
  }

  async purgeMessages({ endpointId, sessionId }: PurgeScope): Promise<boolean> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return false;
    const rows =
      sessionId === undefined
        ? await queryAll<TrackingDocument>(container, "SELECT * FROM c WHERE c.visibility = 'live'")
        : await queryAll<TrackingDocument>(
            container,
            "SELECT * FROM c WHERE c.sessionId = @s AND c.visibility = 'live'",
            [{ name: '@s', value: sessionId }],
          );
    for (const row of rows) await this.#hide(container, row, 'removed', FIXED_RETENTION_MS.softDeletedRows);
    return rows.length > 0;
  }

  async archiveFailedEvent({ endpointId, eventId, sessionId }: TrackedEventKey): Promise<void> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null) return;
    const current = await pointRead(container, { eventId, sessionId, endpointId });
    if (current === null || current.visibility !== 'live') return;
    await this.#hide(container, current, 'archived', FIXED_RETENTION_MS.archivedFailedRows);
  }

  /** Takes a row out of the live views; a concurrent rewrite of it wins (412 → the newer write stands). */
  async #hide(container: Container, row: TrackingDocument, visibility: RowVisibility, retentionMs: number) {
    const at = this.context.now();
    const { _etag, ...rest } = row;
    const hidden: TrackingDocument = {
      ...rest,
      visibility,
      seq: this.context.nextSeq(at),
      ...stampFor(retentionMs, at),
    };
    try {
      await container
        .item(row.id, row.sessionId)
        .replace(hidden, { accessCondition: { type: 'IfMatch', condition: _etag ?? '' } });
    } catch (error) {
      if (isCosmosStatus(error, 412))
        throw new LostWriteRaceError(`Removing event '${row.eventId}' on '${row.endpointId}'`, {
          cause: error,
        });
      throw error;
    }
  }
}
