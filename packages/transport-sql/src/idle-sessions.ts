import type { DialectContext, DialectLocks } from './dialect/dialect.js';
import type { SqlExecutor } from './sql/database.js';
import type { Tables } from './tables.js';

/**
 * The session row `s` holds nothing worth keeping: an empty line, no state, no parked or scheduled copy, and no
 * live lease. Dropping such a row restarts the session's sequences at 1 the next time it gets a message, which is
 * what the in-memory transport does too; a session with parked messages keeps its row (their sequences are
 * permanent).
 */
function isIdle(t: Tables, now: string, s: string): string {
  // Not `message_count = 0`: a lease that ended without release can leave the count high over an empty line.
  return `${s}.locked_until <= ${now} AND ${holdsNothing(t, s)}
    AND NOT EXISTS (SELECT 1 FROM ${t.messages} m WHERE m.input = ${s}.input AND m.session_id = ${s}.session_id)`;
}

/** The session row `s` keeps no state and has nothing parked or scheduled (its line is checked apart). */
export function holdsNothing(t: Tables, s: string): string {
  const same = (alias: string) => `${alias}.input = ${s}.input AND ${alias}.session_id = ${s}.session_id`;
  return `${s}.state IS NULL
    AND NOT EXISTS (SELECT 1 FROM ${t.parked} p WHERE ${same('p')})
    AND NOT EXISTS (SELECT 1 FROM ${t.scheduled} q WHERE ${same('q')})`;
}

/** Deletes one released session's row if it is idle; the caller holds the row's lock (release). */
export async function deleteSessionIfIdle(
  tx: SqlExecutor,
  { t, now }: Pick<DialectContext, 't' | 'now'>,
  input: string,
  sessionId: string,
): Promise<number> {
  return tx.run(
    `DELETE FROM ${t.sessions} AS s WHERE s.input = ? AND s.session_id = ? AND s.lock_token IS NULL AND ${isIdle(t, now, 's')}`,
    [input, sessionId],
  );
}

/**
 * Deletes up to `limit` idle session rows (those a lease lapsed on without release, or emptied by a purge), in a
 * transaction the dialect isolates (`isolateSweep`: PostgreSQL REPEATABLE READ with the candidates locked; a
 * conflict fails the sweep and the transaction retries). SQLite's single writer needs neither.
 */
export async function sweepIdleSessionRows(
  { db, t, now }: Pick<DialectContext, 'db' | 't' | 'now'>,
  locks: DialectLocks,
  limit: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    await locks.isolateSweep(tx);
    return tx.run(
      `DELETE FROM ${t.sessions} AS s WHERE (s.input, s.session_id) IN (
         SELECT i.input, i.session_id FROM ${t.sessions} AS i WHERE ${isIdle(t, now, 'i')} LIMIT ?${db.skipLocked})`,
      [limit],
    );
  });
}
