import { deleteSessionIfIdle } from '../../idle-sessions.js';
import type { SqlExecutor } from '../../sql/database.js';
import { workKey } from '../../wakeups.js';
import type { DialectContext, DialectRelease, LeaseFence } from '../dialect.js';

export const sqliteRelease: DialectRelease = { endLease: releaseInSteps };

/** One writer holds the database for the whole transaction, so plain statements in order suffice. */
async function releaseInSteps(
  context: DialectContext,
  lease: LeaseFence,
  tx: SqlExecutor,
): Promise<Set<string> | null> {
  const { input, sessionId, token } = lease;
  const { t, now } = context;
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
    await deleteSessionIfIdle(tx, context, input, sessionId);
    return null;
  }
  return new Set([workKey(input, sessionId)]);
}
