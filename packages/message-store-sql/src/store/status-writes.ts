import {
  assertValidStatusWriteKey,
  decideStatusWrite,
  type GuardedRow,
  ResolutionStatus,
  type StatusWriteKey,
  TERMINAL_STATUSES,
  toUnresolvedEvent,
  type UnresolvedEventWrite,
} from '@nimbus/message-store';
import type { StoreDb } from '../dialect/sql-dialect.js';
import { notifyAfterCommit, nowDate, type StoreContext } from './store-context.js';
import { unresolvedColumns } from './unresolved-rows.js';

const KEY_COLUMNS = ['endpoint_id', 'event_id', 'session_id'] as const;

/** How often a guarded first insert re-reads after losing the insert race before giving up. */
const MAX_INSERT_RACES = 5;

/**
 * Writes a status row. Terminal outcomes are unguarded (the guard always lets them through), so they are
 * one upsert. Non-terminal writes read the row under the write lock, ask `decideStatusWrite`, and write
 * in the same transaction, so the decision always holds against the row actually replaced.
 */
export async function writeStatus(
  context: StoreContext,
  key: StatusWriteKey,
  status: ResolutionStatus,
  content: UnresolvedEventWrite,
): Promise<boolean> {
  assertValidStatusWriteKey(key);
  const event = toUnresolvedEvent(key, status, content, nowDate(context));
  const columns = unresolvedColumns(event);
  const { dialect } = context;

  let written: boolean;
  if (TERMINAL_STATUSES.has(status)) {
    await dialect.db
      .insertInto('unresolved_events')
      .values(columns)
      .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doUpdateSet(columns))
      .execute();
    written = true;
  } else {
    // The first sighting of an event has no row to guard against (the guard always writes over
    // nothing), so it is one insert; only when a row exists do we lock, decide and update.
    written =
      (await insertIfAbsent(dialect.db, columns)) ||
      (await dialect.atomic((tx) => guardedWrite(context, tx, key, columns, event)));
  }
  if (written) await notifyAfterCommit(context, 'endpoint', key.endpointId);
  return written;
}

async function insertIfAbsent(db: StoreDb, columns: ReturnType<typeof unresolvedColumns>): Promise<boolean> {
  const inserted = await db
    .insertInto('unresolved_events')
    .values(columns)
    .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}

async function guardedWrite(
  context: StoreContext,
  tx: StoreDb,
  key: StatusWriteKey,
  columns: ReturnType<typeof unresolvedColumns>,
  incoming: {
    resolutionStatus: ResolutionStatus;
    messageType: GuardedRow['messageType'];
    lastMessageId: string | null;
  },
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const current = await context.dialect
      .forUpdate(
        tx
          .selectFrom('unresolved_events')
          .select(['id', 'status', 'message_type', 'parent_message_id', 'deleted'])
          .where('endpoint_id', '=', key.endpointId)
          .where('event_id', '=', key.eventId)
          .where('session_id', '=', key.sessionId),
      )
      .executeTakeFirst();
    // A removed or archived row counts as absent: the write revives it.
    const guarded: GuardedRow | null =
      current === undefined || current.deleted !== 0
        ? null
        : {
            resolutionStatus: current.status as ResolutionStatus,
            messageType: current.message_type as GuardedRow['messageType'],
            parentMessageId: current.parent_message_id,
          };
    if (decideStatusWrite(guarded, incoming) === 'refuse') return false;
    if (current !== undefined) {
      await tx.updateTable('unresolved_events').set(columns).where('id', '=', current.id).execute();
      return true;
    }
    // No row to lock yet: insert only if still absent. Losing that race means another writer created
    // the row after our read, so decide again against what it wrote.
    if (await insertIfAbsent(tx, columns)) return true;
    if (attempt >= MAX_INSERT_RACES) {
      throw new Error(
        `Status write for event '${key.eventId}' on '${key.endpointId}' kept losing the first-insert race (${attempt} attempts).`,
      );
    }
  }
}

/**
 * The operator reconcile: ONE conditional UPDATE that turns the row Completed only if it is still a live
 * Pending row whose last message id equals the expected one (null matches null). A lost race updates nothing.
 */
export async function tryCompletePending(
  context: StoreContext,
  key: StatusWriteKey,
  expectedLastMessageId: string | null,
  content: UnresolvedEventWrite,
): Promise<boolean> {
  assertValidStatusWriteKey(key);
  const event = toUnresolvedEvent(key, ResolutionStatus.Completed, content, nowDate(context));
  const result = await context.dialect.db
    .updateTable('unresolved_events')
    .set(unresolvedColumns(event))
    .where('endpoint_id', '=', key.endpointId)
    .where('event_id', '=', key.eventId)
    .where('session_id', '=', key.sessionId)
    .where('status', '=', ResolutionStatus.Pending)
    .where('deleted', '=', 0)
    .where('last_message_id', 'is not distinct from', expectedLastMessageId)
    .executeTakeFirst();
  const completed = Number(result.numUpdatedRows) === 1;
  if (completed) await notifyAfterCommit(context, 'endpoint', key.endpointId);
  return completed;
}
