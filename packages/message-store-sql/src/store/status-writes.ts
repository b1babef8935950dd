import {
  FINISHED_STATUSES,
  FIXED_RETENTION_MS,
  type PendingCompletion,
  ResolutionStatus,
  type StatusWrite,
  type TrackedEventKey,
  type TrackingBatch,
  type TrackingBatchResult,
  type TrackingStatusWrites,
} from '@nimbus/message-store';
import {
  assertValidStatusWriteKey,
  redeliveredStatusWrites,
  toUnresolvedEvent,
  unresolvedRetentionMs,
  writeLeavingOutRedelivered,
} from '@nimbus/message-store/provider';
import type { StoreDb } from '../dialect/sql-dialect.js';
import { insertMessages } from './message-rows.js';
import { chunks } from './query-helpers.js';
import { StatusCountFolding } from './status-counts.js';
import { statusWriteAllowed } from './status-guard-sql.js';
import { nowDate, type StoreContext } from './store-context.js';
import { unresolvedColumns } from './unresolved-rows.js';

/** What the tracking writes read from their store: the clock rows are stamped from, the retention in force. */
export type WriteContext = Pick<StoreContext, 'clock' | 'retention'>;

const KEY_COLUMNS = ['endpoint_id', 'event_id', 'session_id'] as const;
/** Rows per upsert statement (20 columns each, well inside both engines' parameter limits). */
const ROWS_PER_STATEMENT = 500;

const keyText = (k: TrackedEventKey) => `${k.endpointId}\u0000${k.eventId}\u0000${k.sessionId}`;

/**
 * Status writes on SQL. Each write is an upsert whose update is conditioned on the stale-write guard
 * evaluated in SQL against the row the upsert locked, so the decision always holds against the row
 * actually replaced; rows the guard refuses are simply not returned. A batch is one transaction with one
 * statement per "round": round n holds the n-th write of every key, so several writes of one key apply in
 * order, and rows are sorted by key so concurrent batches lock in the same order.
 */
export class SqlStatusWrites implements TrackingStatusWrites {
  readonly #counts: StatusCountFolding;

  constructor(private readonly context: StoreContext) {
    this.#counts = new StatusCountFolding(context);
  }

  async writeStatus(write: StatusWrite): Promise<boolean> {
    assertValidStatusWriteKey(write.key);
    const [written] = await upsertGuarded(this.context.dialect.db, this.context, [write]);
    await this.#counts.afterCommit();
    return written!;
  }

  async writeStatuses(writes: readonly StatusWrite[]): Promise<boolean[]> {
    return [...(await this.writeBatch({ statuses: writes })).statusesWritten];
  }

  async writeBatch(batch: TrackingBatch): Promise<TrackingBatchResult> {
    for (const write of batch.statuses ?? []) assertValidStatusWriteKey(write.key);
    if ((batch.messages?.length ?? 0) === 0 && (batch.statuses?.length ?? 0) === 0)
      return { messagesStored: [], statusesWritten: [] };
    const result = await this.context.dialect.atomic((tx) => writeTrackingBatch(tx, this.context, batch));
    await this.#counts.afterCommit();
    return result;
  }

  /**
   * The operator reconcile: ONE conditional UPDATE that turns the row Completed only if it is still a live
   * Pending row whose last message id equals the expected one (null matches null). A lost race updates nothing.
   */
  async tryCompletePending({ key, expectedLastMessageId, content }: PendingCompletion): Promise<boolean> {
    assertValidStatusWriteKey(key);
    const at = nowDate(this.context);
    const event = toUnresolvedEvent(key, ResolutionStatus.Completed, content, at);
    const result = await this.context.dialect.db
      .updateTable('unresolved_events')
      .set(unresolvedColumns(event, expiryFor(this.context, ResolutionStatus.Completed, at.getTime())))
      .where('endpoint_id', '=', key.endpointId)
      .where('event_id', '=', key.eventId)
      .where('session_id', '=', key.sessionId)
      .where('status', '=', ResolutionStatus.Pending)
      .where('deleted', '=', 0)
      .where('last_message_id', 'is not distinct from', expectedLastMessageId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** The expiry a row gets from the retention in force now; it keeps it until it is rewritten. */
function expiryFor(context: WriteContext, status: ResolutionStatus, atMs: number): number | null {
  if (FINISHED_STATUSES.has(status)) return atMs + FIXED_RETENTION_MS.terminalRows;
  const window = unresolvedRetentionMs(context.retention);
  return window === null ? null : atMs + window;
}

/** Writes of distinct keys; one result per write, in the given order. */
async function upsertGuarded(
  db: StoreDb,
  context: WriteContext,
  writes: readonly StatusWrite[],
): Promise<boolean[]> {
  const at = nowDate(context);
  const order = writes
    .map((_, i) => i)
    .sort((a, b) => compare(keyText(writes[a]!.key), keyText(writes[b]!.key)));
  const written = new Set<string>();
  for (const part of chunks(order, ROWS_PER_STATEMENT)) {
    const rows = part.map((i) => {
      const { key, status, content } = writes[i]!;
      return unresolvedColumns(
        toUnresolvedEvent(key, status, content, at),
        expiryFor(context, status, at.getTime()),
      );
    });
    const returned = await db
      .insertInto('unresolved_events')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns([...KEY_COLUMNS])
          .doUpdateSet((eb) => updateFromExcluded(eb))
          .where((eb) => statusWriteAllowed(eb)),
      )
      .returning(['endpoint_id', 'event_id', 'session_id'])
      .execute();
    for (const r of returned) {
      written.add(keyText({ endpointId: r.endpoint_id, eventId: r.event_id, sessionId: r.session_id }));
    }
  }
  return writes.map((w) => written.has(keyText(w.key)));
}

/**
 * History records first (first write wins), then the guarded status rows, one round of keys at a time, in the
 * caller's transaction `tx`: the store's own `writeBatch` and a co-located transport's projection both run this.
 * The status of a message whose history record was already there (a redelivered copy) is not written again: it
 * was written in the same transaction as that record (`redeliveredStatusWrites`).
 */
export async function writeTrackingBatch(
  tx: StoreDb,
  context: WriteContext,
  { messages = [], statuses = [] }: TrackingBatch,
): Promise<TrackingBatchResult> {
  const messagesStored = await insertMessages(tx, context, messages);
  const redelivered = redeliveredStatusWrites(messages, messagesStored, statuses);
  const statusesWritten = await writeLeavingOutRedelivered(statuses, redelivered, (fresh) =>
    upsertInRounds(tx, context, fresh),
  );
  return { messagesStored, statusesWritten };
}

/** The guarded upserts of `statuses`, one round of distinct keys at a time, in order. */
async function upsertInRounds(
  tx: StoreDb,
  context: WriteContext,
  statuses: readonly StatusWrite[],
): Promise<boolean[]> {
  const statusesWritten = new Array<boolean>(statuses.length).fill(false);
  for (const round of rounds(statuses)) {
    const written = await upsertGuarded(
      tx,
      context,
      round.map((i) => statuses[i]!),
    );
    round.forEach((index, n) => {
      statusesWritten[index] = written[n]!;
    });
  }
  return statusesWritten;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Indexes of `writes` grouped so each group has at most one write per key, in order of occurrence. */
function rounds(writes: readonly StatusWrite[]): number[][] {
  const seen = new Map<string, number>();
  const result: number[][] = [];
  writes.forEach((write, index) => {
    const key = keyText(write.key);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    if (result[round] === undefined) result[round] = [];
    result[round].push(index);
  });
  return result;
}

const UPDATED_COLUMNS = [
  'status',
  'message_type',
  'parent_message_id',
  'last_message_id',
  'event_type_id',
  'to_address',
  'from_address',
  'endpoint_role',
  'pending_sub_status',
  'external_job_id',
  'updated_at',
  'enqueued_time',
  'deleted',
  'deleted_at',
  'deletion_kind',
  'expires_at',
  'failure_signature',
  'document_json',
] as const;

// biome-ignore lint/suspicious/noExplicitAny: Kysely's excluded-row builder type is internal.
function updateFromExcluded(eb: any): Record<string, unknown> {
  return Object.fromEntries(UPDATED_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)]));
}
