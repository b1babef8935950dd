import { receiveReturning, takeHeadParams } from '../../line-head.js';
import type { DialectContext, DialectReceive, HeadTake, LeaseFence } from '../dialect.js';

export const sqliteReceive: DialectReceive = { takeHead };

const STORED_BYTES = '(length(CAST(body AS BLOB)) + length(CAST(headers AS BLOB)))';

/**
 * Takes up to `max` messages at the line's head. Statements are cheap on the local file, so when there are none
 * the core inspects the line in separate ones (take-group.ts).
 */
async function takeHead(context: DialectContext, lease: LeaseFence, max: number): Promise<HeadTake> {
  const rows = await context.db.all(
    `UPDATE ${context.t.messages} SET held_by = ?, delivery_count = delivery_count + 1
     WHERE input = ? AND session_id = ? AND seq IN (
       SELECT seq FROM ${context.t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
       ORDER BY seq LIMIT ?)
     AND ${lease.validSql}
     ${receiveReturning(STORED_BYTES)}`,
    [...takeHeadParams(lease, max), context.options.maxBatchBytes],
    { prepared: true },
  );
  return { rows, inspection: null };
}
