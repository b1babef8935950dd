import {
  FINISHED_STATUSES,
  FIXED_RETENTION_MS,
  type RetentionSweepResult,
  UNRESOLVED_STATUSES,
} from '@nimbus/message-store';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { StoreDatabase } from '../schema/database.js';
import { DeletionKind } from '../store/lifecycle.js';
import type { StoreContext } from '../store/store-context.js';

/** Rows deleted per statement, so a sweep never holds a long lock (SQLite has one writer). */
export const DEFAULT_SWEEP_BATCH_SIZE = 500;

type BatchedTable = 'unresolved_events' | 'messages' | 'message_audits';
type Condition<T extends BatchedTable> = (eb: ExpressionBuilder<StoreDatabase, T>) => Expression<SqlBool>;

/**
 * Deletes everything past its retention at `nowMs`. A resolver row goes when the expiry stamped at its
 * last write (`expires_at`: the unresolved window in force then, the fixed terminal window, or the
 * soft-delete / archive window) has passed; history and audits by the fixed table from their creation.
 */
export async function sweepExpiredRows(
  context: StoreContext,
  nowMs: number,
  batchSize = DEFAULT_SWEEP_BATCH_SIZE,
): Promise<RetentionSweepResult> {
  const expired = (condition: Condition<'unresolved_events'>) =>
    deleteInBatches(
      context,
      'unresolved_events',
      (eb) => eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', nowMs), condition(eb)]),
      batchSize,
    );
  const live =
    (statuses: readonly string[]): Condition<'unresolved_events'> =>
    (eb) =>
      eb.and([eb('deleted', '=', 0), eb('status', 'in', [...statuses])]);
  const deletedAs =
    (kind: string): Condition<'unresolved_events'> =>
    (eb) =>
      eb.and([eb('deleted', '=', 1), eb('deletion_kind', '=', kind)]);

  return {
    unresolvedRows: await expired(live([...UNRESOLVED_STATUSES])),
    terminalRows: await expired(live([...FINISHED_STATUSES])),
    softDeletedRows: await expired(deletedAs(DeletionKind.Removed)),
    archivedRows: await expired(deletedAs(DeletionKind.Archived)),
    messages: await deleteInBatches(
      context,
      'messages',
      (eb) => eb('created_at', '<=', nowMs - FIXED_RETENTION_MS.messages),
      batchSize,
    ),
    audits: await deleteInBatches(
      context,
      'message_audits',
      (eb) => eb('created_at', '<=', nowMs - FIXED_RETENTION_MS.audits),
      batchSize,
    ),
  };
}

async function deleteInBatches<T extends BatchedTable>(
  context: StoreContext,
  table: T,
  condition: Condition<T>,
  batchSize: number,
): Promise<number> {
  const db = context.dialect.db;
  let total = 0;
  for (;;) {
    // Two statements rather than DELETE … LIMIT, which PostgreSQL lacks; ids are re-checked by the condition.
    const ids = (
      await db
        .selectFrom(table as BatchedTable)
        .select('id')
        .where(condition as Condition<BatchedTable>)
        .limit(batchSize)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return total;
    const result = await db
      .deleteFrom(table as BatchedTable)
      .where('id', 'in', ids)
      .where(condition as Condition<BatchedTable>)
      .executeTakeFirst();
    total += Number(result.numDeletedRows);
    if (ids.length < batchSize) return total;
  }
}
