import { holdsNothing } from '../../idle-sessions.js';
import type { SqlExecutor } from '../../sql/database.js';
import { workKey } from '../../wakeups.js';
import type { DialectContext, DialectRelease, LeaseFence } from '../dialect.js';

export const postgresRelease: DialectRelease = { endLease: releaseOnPostgres };

/**
 * Two statements (four round trips with BEGIN and COMMIT). The row lock comes first, in its own statement:
 * publishers lock the row before inserting, so the next statement's snapshot, taken after the lock, counts every
 * committed message, and later ones add to the count.
 */
async function releaseOnPostgres(
  context: DialectContext,
  lease: LeaseFence,
  tx: SqlExecutor,
): Promise<Set<string> | null> {
  const { input, sessionId, token } = lease;
  const { t, now } = context;
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
  const payloads = context.notifyNow(work);
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
