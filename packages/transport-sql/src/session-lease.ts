import { MAX_DELIVERY_COUNT_REASON, uuidv7 } from '@nimbus/core';
import { maxDeliveryDescription } from '@nimbus/core/transport-spi';
import type { Row } from './sql/database.js';
import type { SqlCore } from './sql-core.js';
import { localExpiry, SqlSessionHandle } from './sql-session-handle.js';

/** Leases the named session, or the free session with work that has waited longest; null if none. */
export async function tryLease(
  core: SqlCore,
  input: string,
  sessionId: string | null,
): Promise<SqlSessionHandle | null> {
  const token = uuidv7();
  const askedAt = Date.now();
  const leased = await core.dialect.lease.leaseSession(core, input, sessionId, token);
  if (!leased) return null;
  const { row, line } = leased;
  const lockedUntil = localExpiry(askedAt, row);
  const state = row.state === null || row.state === undefined ? null : String(row.state);
  const handle = new SqlSessionHandle(core, input, String(row.session_id), token, lockedUntil, state);
  if (await deadLetterExhausted(core, input, String(row.session_id), token, line)) return handle;
  await handle.release();
  return null;
}

/**
 * Dead-letters messages whose last delivery hit the limit and whose lease then lapsed, before anyone sees them
 * again. Returns whether the newly leased session has anything left to receive.
 */
async function deadLetterExhausted(
  core: SqlCore,
  input: string,
  sessionId: string,
  token: string,
  line: Row | undefined,
): Promise<boolean> {
  const { t, db } = core;
  const max = core.options.maxDeliveryCount;
  // A count left high by a lease that ended without release: nothing to do; releasing sets the count right.
  if (!truthy(line?.pending)) return false;
  if (!truthy(line?.exhausted)) return true;
  return db.transaction(async (tx) => {
    const rows = await tx.all(
      `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND held_by IS NOT NULL AND held_by <> ? AND delivery_count >= ?
       RETURNING *`,
      [input, sessionId, token, max],
    );
    for (const row of rows) {
      await core.insertDeadLetter(
        tx,
        row,
        MAX_DELIVERY_COUNT_REASON,
        maxDeliveryDescription(Number(row.delivery_count), max),
      );
    }
    const [left] = await tx.all(
      `UPDATE ${t.sessions} SET message_count = message_count - ? WHERE input = ? AND session_id = ? RETURNING message_count`,
      [rows.length, input, sessionId],
    );
    return Number(left?.message_count ?? 0) > 0;
  });
}

/** SQLite answers booleans as 0/1, PostgreSQL as true/false. */
function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
