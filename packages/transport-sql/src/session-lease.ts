import { MAX_DELIVERY_COUNT_REASON, uuidv7 } from '@nimbus/core';
import { maxDeliveryDescription } from '@nimbus/core/transport-spi';
import type { LeasedSession } from './dialect/dialect.js';
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
  return leased ? usable(core, input, token, askedAt, leased) : null;
}

/** Leases up to `max` free sessions with work, longest waiting first, in one statement or transaction. */
export async function tryLeaseMany(core: SqlCore, input: string, max: number): Promise<SqlSessionHandle[]> {
  const tokens = Array.from({ length: max }, () => uuidv7());
  const askedAt = Date.now();
  const leased = await core.dialect.lease.leaseSessions(core, input, tokens);
  const handles: SqlSessionHandle[] = [];
  for (const [index, session] of leased.entries()) {
    const handle = await usable(core, input, tokens[index]!, askedAt, session);
    if (handle) handles.push(handle);
  }
  return handles;
}

/** The handle of a new lease, or null (released) when dead-lettering exhausted messages left nothing to receive. */
async function usable(
  core: SqlCore,
  input: string,
  token: string,
  askedAt: number,
  { row, line }: LeasedSession,
): Promise<SqlSessionHandle | null> {
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
