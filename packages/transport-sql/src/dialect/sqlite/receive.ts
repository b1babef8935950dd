import type { HeldLease } from '../../held-lease.js';
import { anotherSessionWaits, receiveReturning, takeHeadParams } from '../../line-head.js';
import type { DialectReceive, TakenHead } from '../dialect.js';

export const sqliteReceive: DialectReceive = { takeHead };

const STORED_BYTES = '(length(CAST(body AS BLOB)) + length(CAST(headers AS BLOB)))';

/**
 * Takes up to `max` messages at the line's head; when there are none, checks the lease, promotes due scheduled
 * copies and, when no accept of this process runs, looks whether another session waits. Statements are cheap on
 * the local file, so these are separate.
 */
async function takeHead(lease: HeldLease, max: number): Promise<TakenHead> {
  const { core } = lease;
  const rows = await core.db.all(
    `UPDATE ${core.t.messages} SET held_by = ?, delivery_count = delivery_count + 1
     WHERE input = ? AND session_id = ? AND seq IN (
       SELECT seq FROM ${core.t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
       ORDER BY seq LIMIT ?)
     AND ${lease.validSql}
     ${receiveReturning(STORED_BYTES)}`,
    [...takeHeadParams(lease, max), core.options.maxBatchBytes],
    { prepared: true },
  );
  if (rows.length > 0) return { rows, nextDue: null, othersWaiting: false };
  await lease.assertLease(core.db);
  const nextDue = await core.promoteDue(lease.input);
  let othersWaiting = false;
  if (core.wakeups.acceptsRunning(lease.input) === 0) {
    const waiting = await core.db.all(
      `SELECT 1 AS waiting FROM ${core.t.sessions} ${anotherSessionWaits(core)} LIMIT 1`,
      [lease.input],
      { prepared: true },
    );
    othersWaiting = waiting.length > 0;
  }
  return { rows: [], nextDue, othersWaiting };
}
