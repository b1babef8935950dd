import type { HeldLease } from './held-lease.js';
import { deleteSessionIfIdle, holdsNothing } from './idle-sessions.js';
import type { SqlExecutor } from './sql/database.js';
import { workKey } from './wakeups.js';

/**
 * Ends a lease: a live lease hands the messages it holds back uncounted (a lapsed one already counted them), the
 * session's `message_count` is set exactly (settling does not always decrement it), an idle session's row goes,
 * and a session with work left is announced. `locked_until = now` stamps the end of the turn: accept-next serves
 * sessions in that order, so a session released with work waiting goes behind the ones that waited longer.
 */
export async function releaseLease(lease: HeldLease): Promise<void> {
  const { core } = lease;
  core.assertOpen();
  const released = await core.db.transaction((tx) =>
    core.db.dialect === 'postgres' ? releaseOnPostgres(lease, tx) : releaseInSteps(lease, tx),
  );
  if (released) core.wakeLocal(released);
}

/**
 * Two statements (four round trips with BEGIN and COMMIT). The row lock comes first, in its own statement:
 * publishers lock the row before inserting, so the next statement's snapshot, taken after the lock, counts every
 * committed message, and later ones add to the count.
 */
async function releaseOnPostgres(lease: HeldLease, tx: SqlExecutor): Promise<Set<string> | null> {
  const { core, input, sessionId, token } = lease;
  const { t, now } = core;
  const [locked] = await tx.all(
    `WITH lock AS (SELECT 1 FROM ${t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ? FOR UPDATE),
     handed AS (
       UPDATE ${t.messages} SET held_by = NULL, delivery_count = CASE WHEN delivery_count > 0 THEN delivery_count - 1 ELSE 0 END
       WHERE input = ? AND session_id = ? AND held_by = ? AND ${lease.validSql} RETURNING 1)
     SELECT (SELECT COUNT(*) FROM lock) AS held, (SELECT COUNT(*) FROM handed) AS handed`,
    [input, sessionId, token, input, sessionId, token, ...lease.params],
    { prepared: true },
  );
  if (Number(locked?.held ?? 0) === 0) return null;
  const work = new Set([workKey(input, sessionId)]);
  // Decided before the count is known: at worst an empty session is announced, and its waiter finds nothing.
  const payloads = core.notifyNow(work);
  const [row] = await tx.all(
    `WITH counted AS (SELECT COUNT(*) AS n FROM ${t.messages} WHERE input = ? AND session_id = ?),
     gone AS (
       DELETE FROM ${t.sessions} AS s WHERE s.input = ? AND s.session_id = ? AND s.lock_token = ?
         AND (SELECT n FROM counted) = 0 AND ${holdsNothing(t, 's')}
       RETURNING 1),
     ended AS (
       UPDATE ${t.sessions} SET lock_token = NULL, locked_until = ${now}, message_count = (SELECT n FROM counted)
       WHERE input = ? AND session_id = ? AND lock_token = ? AND NOT EXISTS (SELECT 1 FROM gone)
       RETURNING message_count)
     SELECT (SELECT message_count FROM ended) AS left_count,
       (SELECT COUNT(*) FROM (SELECT pg_notify(?, x) FROM unnest(?::text[]) AS x
          WHERE EXISTS (SELECT 1 FROM ended WHERE message_count > 0)) AS sent) AS notified`,
    [input, sessionId, input, sessionId, token, input, sessionId, token, t.channel, payloads],
    { prepared: true },
  );
  return Number(row?.left_count ?? 0) > 0 ? work : null;
}

/** SQLite: one writer holds the database for the whole transaction, so plain statements in order suffice. */
async function releaseInSteps(lease: HeldLease, tx: SqlExecutor): Promise<Set<string> | null> {
  const { core, input, sessionId, token } = lease;
  const { t, now } = core;
  await tx.run(
    `UPDATE ${t.messages} SET held_by = NULL, delivery_count = CASE WHEN delivery_count > 0 THEN delivery_count - 1 ELSE 0 END
     WHERE input = ? AND session_id = ? AND held_by = ? AND ${lease.validSql}`,
    [input, sessionId, token, ...lease.params],
  );
  const [left] = await tx.all(
    `UPDATE ${t.sessions} SET lock_token = NULL, locked_until = ${now},
       message_count = (SELECT COUNT(*) FROM ${t.messages} WHERE input = ? AND session_id = ?)
     WHERE input = ? AND session_id = ? AND lock_token = ? RETURNING message_count`,
    [input, sessionId, input, sessionId, token],
  );
  if (left === undefined) return null;
  if (Number(left.message_count ?? 0) === 0) {
    await deleteSessionIfIdle(tx, core, input, sessionId);
    return null;
  }
  return new Set([workKey(input, sessionId)]);
}
