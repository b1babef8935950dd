import { sessionKey } from '../../line-writer.js';
import type { DialectContext, DialectSettle, OneStatementOutcome, OneStatementSettle } from '../dialect.js';
import { lineArrays, lineInsertSql, sessionUpsertSql } from './line-append.js';

// Settlement on PostgreSQL. The common case (nothing touches parked rows, no scheduled copies) is one statement of
// data-modifying CTEs: one round trip and one commit however many messages are settled. The core chooses it
// (settle-paths.ts); anything else takes the transactional path every dialect shares.

export const postgresSettle: DialectSettle = { inOneStatement: settleInOneStatement };

const DIVISION_BY_ZERO = '22012';

/**
 * The one-statement path for settlements that touch no parked rows: removes the messages, dead-letters those that
 * ask for it, updates the session row (only while the lease holds), appends the published copies and notifies
 * listeners, all in one statement, so one round trip and one commit however many messages are settled.
 * Data-modifying CTEs share the statement's atomicity: if messages were removed but the lease check failed, or
 * only some of the messages were held, the guard divides by zero and the whole statement rolls back.
 */
async function settleInOneStatement(
  context: DialectContext,
  settle: OneStatementSettle,
): Promise<{ outcome: OneStatementOutcome; inputs: Set<string> }> {
  const { db, t, now: nowMs } = context;
  const { input, sessionId, token } = settle.lease;
  // The settling session's row is written only when something changes there (state, or copies appended to
  // its own line); otherwise the lease is only read, and `message_count` is corrected when the lease ends.
  const ownKey = sessionKey(input, sessionId);
  const writesOwnRow =
    settle.state !== undefined ||
    settle.deliveries.some((d) => sessionKey(d.input, d.message.sessionId) === ownKey);
  const count = settle.messages.length;
  const { sessions, lines, inputs } = lineArrays(
    settle.deliveries,
    writesOwnRow ? { input, sessionId } : null,
    count,
  );
  const deadLetters = settle.messages.filter((m) => m.deadLetter !== null);
  const upsert = sessionUpsertSql(t, nowMs, 10, {
    onlyIf: 'EXISTS (SELECT 1 FROM del)',
    set: 'state = CASE WHEN s.input = $1 AND s.session_id = $2 AND $14::boolean THEN $15::text ELSE s.state END',
    where: `NOT (s.input = $1 AND s.session_id = $2) OR (s.lock_token = $4 AND s.locked_until > ${nowMs})`,
  });
  const sql = `
    WITH del AS (
      DELETE FROM ${t.messages} WHERE input = $1 AND session_id = $2 AND held_by = $4
        AND (seq, delivery_count) IN (SELECT k.seq, k.delivery_count FROM unnest($3::bigint[], $5::int[]) AS k(seq, delivery_count))
        AND EXISTS (SELECT 1 FROM ${t.sessions} WHERE input = $1 AND session_id = $2 AND lock_token = $4
          AND locked_until > ${nowMs})
      RETURNING *
    ), dl AS (
      INSERT INTO ${t.deadLetters} (id, input, session_id, seq, message_id, correlation_id, headers, body, reason,
        description, delivery_count, enqueued_at, dead_lettered_at)
      SELECT x.id, del.input, del.session_id, del.seq, del.message_id, del.correlation_id, del.headers, del.body,
        x.reason, x.description, del.delivery_count, del.enqueued_at, ${nowMs}
      FROM unnest($6::text[], $7::bigint[], $8::text[], $9::text[]) WITH ORDINALITY AS x(id, seq, reason, description, ord)
      JOIN del ON del.seq = x.seq
      ORDER BY x.ord
    ), up AS (${upsert}), ins AS (${lineInsertSql(t, nowMs, 16)})
    SELECT (SELECT count(*) FROM del) AS deleted,
      1 / (CASE WHEN ($26::boolean AND EXISTS (SELECT 1 FROM del)
             AND NOT EXISTS (SELECT 1 FROM up WHERE up.input = $1 AND up.session_id = $2 AND up.lock_token = $4))
             OR (SELECT count(*) FROM del) NOT IN (0, $27::int)
             THEN 0 ELSE 1 END) AS lease_guard,
      (SELECT count(*) FROM ins) AS inserted,
      (SELECT count(pg_notify($24, x)) FROM unnest($25::text[]) AS x) AS notified`;
  try {
    const [row] = await db.all(
      sql,
      [
        input,
        sessionId,
        settle.messages.map((m) => m.sequence),
        token,
        settle.messages.map((m) => m.deliveryCount),
        deadLetters.map((m) => m.deadLetter!.id),
        deadLetters.map((m) => m.sequence),
        deadLetters.map((m) => m.deadLetter!.reason),
        deadLetters.map((m) => m.deadLetter!.description),
        ...sessions,
        settle.state !== undefined,
        settle.state ?? null,
        ...lines,
        t.channel,
        context.notifyNow(inputs),
        writesOwnRow,
        count,
      ],
      { prepared: true },
    );
    if (Number(row?.deleted ?? 0) === 0) return { outcome: 'notHeld', inputs: new Set() };
    return { outcome: 'settled', inputs };
  } catch (error) {
    if ((error as { code?: string }).code === DIVISION_BY_ZERO)
      return { outcome: 'guard', inputs: new Set() };
    throw error;
  }
}
