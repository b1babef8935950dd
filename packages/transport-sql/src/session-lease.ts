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
  const { t, now, db } = core;
  const token = uuidv7();
  const askedAt = Date.now();
  const named = sessionId === null ? '' : ' AND session_id = ?';
  const params: unknown[] = [core.options.lockDurationMs, token, input, input];
  if (sessionId !== null) params.push(sessionId);
  // Sessions are served in `locked_until` order: when their last lease ended (release stamps it) or when they got
  // work while free (`readySince`), so the session that has waited longest goes first.
  const lease = `UPDATE ${t.sessions} SET locked_until = ${now} + ?, lock_token = ?
     WHERE input = ? AND session_id = (
       SELECT session_id FROM ${t.sessions} WHERE input = ? AND message_count > 0 AND locked_until <= ${now}${named}
       ORDER BY locked_until LIMIT 1${db.skipLocked})
     RETURNING session_id, locked_until, state, ${now} AS db_now`;
  const postgres = db.dialect === 'postgres';
  // PostgreSQL: one round trip takes the lease and reads what the line holds (the UPDATE touches only sessions).
  const sql = postgres
    ? `WITH leased AS (${lease}) SELECT leased.*, ${lineFlags(core, 'leased.session_id')} FROM leased`
    : lease;
  const rows = await db.all(sql, postgres ? [...params, input, token, input] : params, { prepared: true });
  const row = rows[0];
  if (!row) return null;
  const lockedUntil = localExpiry(askedAt, row);
  const state = row.state === null || row.state === undefined ? null : String(row.state);
  const handle = new SqlSessionHandle(core, input, String(row.session_id), token, lockedUntil, state);
  const flags = postgres ? row : await readLineFlags(core, input, String(row.session_id), token);
  if (await deadLetterExhausted(core, input, String(row.session_id), token, flags)) return handle;
  await handle.release();
  return null;
}

/** SELECT-list items `exhausted` and `pending` of a session's line; parameters: input, token, input. */
function lineFlags(core: SqlCore, sessionId: string): string {
  const { t } = core;
  return `EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ${sessionId} AND held_by IS NOT NULL
                    AND held_by <> ? AND delivery_count >= ${core.options.maxDeliveryCount}) AS exhausted,
          EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ${sessionId}) AS pending`;
}

function readLineFlags(
  core: SqlCore,
  input: string,
  sessionId: string,
  token: string,
): Promise<Row | undefined> {
  return core.db
    .all(`SELECT ${lineFlags(core, '?')}`, [input, sessionId, token, input, sessionId], { prepared: true })
    .then((rows) => rows[0]);
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
