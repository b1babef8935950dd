import type { DialectContext } from './dialect/dialect.js';

// Statement parts both dialects' lease (dialect/<name>/lease.ts) share.

/**
 * The UPDATE that leases the named session, or the free session with work that has waited longest, with `token`,
 * and its parameters. Sessions are served in `locked_until` order: when their last lease ended (release stamps
 * it) or when they got work while free (`readySince`), so the session that has waited longest goes first.
 */
export function leaseStatement(
  context: DialectContext,
  input: string,
  sessionId: string | null,
  token: string,
): { readonly sql: string; readonly params: unknown[] } {
  const { t, now, db } = context;
  const named = sessionId === null ? '' : ' AND session_id = ?';
  const params: unknown[] = [context.options.lockDurationMs, token, input, input];
  if (sessionId !== null) params.push(sessionId);
  const sql = `UPDATE ${t.sessions} SET locked_until = ${now} + ?, lock_token = ?
     WHERE input = ? AND session_id = (
       SELECT session_id FROM ${t.sessions} WHERE input = ? AND message_count > 0 AND locked_until <= ${now}${named}
       ORDER BY locked_until LIMIT 1${db.skipLocked})
     RETURNING session_id, locked_until, state, ${now} AS db_now`;
  return { sql, params };
}

/**
 * SELECT-list items `exhausted` and `pending` of a session's line; parameters: input, token, input (the token is
 * a parameter unless `token` names the column that holds it).
 */
export function lineFlags(context: DialectContext, sessionId: string, token = '?'): string {
  const { t } = context;
  return `EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ${sessionId} AND held_by IS NOT NULL
                    AND held_by <> ${token} AND delivery_count >= ${context.options.maxDeliveryCount}) AS exhausted,
          EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ${sessionId}) AS pending`;
}

/**
 * PostgreSQL: leases up to as many free sessions with work as `tokens` has entries, longest waiting first, in one
 * statement; the i-th session in that order gets the i-th token. Parameters: input, tokens.length, lockDurationMs,
 * tokens, input, input, input. Rows carry `rank` (1-based order).
 */
export function leaseManyStatement(context: DialectContext): string {
  const { t, now, db } = context;
  return `WITH picked AS (
       SELECT session_id, locked_until AS ready FROM ${t.sessions}
       WHERE input = ? AND message_count > 0 AND locked_until <= ${now}
       ORDER BY locked_until, session_id LIMIT ?${db.skipLocked}
     ), ranked AS (
       SELECT session_id, row_number() OVER (ORDER BY ready, session_id) AS rank FROM picked
     ), leased AS (
       UPDATE ${t.sessions} AS s SET locked_until = ${now} + ?, lock_token = (?::text[])[ranked.rank::int]
       FROM ranked WHERE s.input = ? AND s.session_id = ranked.session_id
       RETURNING s.session_id, s.locked_until, s.state, s.lock_token, ranked.rank, ${now} AS db_now
     )
     SELECT leased.*, ${lineFlags(context, 'leased.session_id', 'leased.lock_token')} FROM leased ORDER BY leased.rank`;
}
