import type { TransportMessage } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/** What the outbox keeps for one message: the publish it stands for. */
export interface OutboxEntry {
  /** The endpoint whose topic the message goes out on (as in `PublishRequest.source`). */
  readonly source: string;
  readonly message: TransportMessage;
  /** Not visible to consumers before this time. */
  readonly enqueueAt?: Date | null;
}

export interface OutboxMessage {
  /** The outbox row id (not the message id: the same message may be stored twice). */
  readonly id: string;
  readonly source: string;
  readonly message: TransportMessage;
  readonly messageId: string;
  readonly destination: string | null;
  readonly eventTypeId: string | null;
  readonly sessionId: string;
  readonly correlationId: string | null;
  readonly enqueueAt: Date | null;
  readonly createdAt: Date;
  readonly dispatchedAt: Date | null;
  readonly traceParent: string | null;
  readonly traceState: string | null;
}

export interface OutboxWriteOptions {
  /**
   * The caller's transaction (Kysely transaction, pg client, better-sqlite3 database inside a transaction).
   * Without it the ambient transaction (`withAmbientTransaction`) is used, else the store's own connection.
   */
  // biome-ignore lint/suspicious/noExplicitAny: SQL stores narrow this to a SqlConnection
  readonly transaction?: any;
}

/** Publish-after-commit storage. Dispatch is at-least-once; consumers must tolerate duplicates. */
export interface OutboxStore {
  readonly provider: string;
  store(entry: OutboxEntry, options?: OutboxWriteOptions): Promise<OutboxMessage>;
  /** Stores all entries, in order, in one transaction. */
  storeBatch(entries: readonly OutboxEntry[], options?: OutboxWriteOptions): Promise<OutboxMessage[]>;
  /** Up to `limit` undispatched rows, oldest first. */
  getPending(limit: number): Promise<OutboxMessage[]>;
  /** Idempotent: rows already dispatched keep their first dispatch time. Returns how many rows were newly marked. */
  markAsDispatched(ids: readonly string[]): Promise<number>;
  /** Deletes dispatched rows whose dispatch time is before `olderThan`; returns how many. */
  purgeDispatched(olderThan: Date): Promise<number>;
  /** One row by outbox id, dispatched or not; `null` when unknown (or purged). */
  find(id: string): Promise<OutboxMessage | null>;
  /** For gauges: how many rows wait and since when. */
  pendingStats(): Promise<{ readonly count: number; readonly oldestCreatedAt: Date | null }>;
}

export const MARK_CHUNK = 100;

export function positiveLimit(limit: number, what: string): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${what} must be a positive integer, got ${String(limit)}`,
    );
  }
  return limit;
}

export function validateEntry(entry: OutboxEntry, index: number): void {
  const where = `Outbox entry ${index}`;
  if (!entry || typeof entry.source !== 'string' || entry.source.length === 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${where}: source must be a non-empty endpoint id`,
    );
  }
  const m = entry.message;
  if (!m || typeof m.messageId !== 'string' || m.messageId.length === 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${where}: message.messageId must be a non-empty string`,
    );
  }
  if (typeof m.sessionId !== 'string' || typeof m.body !== 'string' || typeof m.headers !== 'object') {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `${where}: message must be a TransportMessage (sessionId, headers, body)`,
    );
  }
  if (entry.enqueueAt != null && Number.isNaN(new Date(entry.enqueueAt).getTime())) {
    throw new NimBusError(NimBusErrorCode.InvalidArgument, `${where}: enqueueAt is not a valid date`);
  }
}
