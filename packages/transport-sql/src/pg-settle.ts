import type { Delivery } from '@nimbus/core';
import { sessionKey } from './line-writer.js';
import type { SqlExecutor } from './sql/database.js';
import type { Tables } from './tables.js';

export interface OneStatementSettle {
  readonly input: string;
  readonly sessionId: string;
  readonly sequence: number;
  readonly leaseToken: string;
  readonly deliveryCount: number;
  readonly deadLetter: {
    readonly id: string;
    readonly reason: string;
    readonly description: string | null;
  } | null;
  /** JSON text, `null` to clear, `undefined` to keep. */
  readonly state: string | null | undefined;
  readonly deliveries: readonly Delivery[];
}

export type OneStatementOutcome = 'settled' | 'notHeld' | 'leaseLost';

const DIVISION_BY_ZERO = '22012';

/**
 * PostgreSQL fast path for a settlement without parking: removes the message, dead-letters it if asked,
 * updates the session row (only while the lease holds), appends the published copies and notifies listeners,
 * all in one statement, so one round trip and one commit. Data-modifying CTEs share the statement's
 * atomicity: if the message was removed but the lease check failed, the guard divides by zero and the
 * whole statement rolls back.
 */
interface LineArrays {
  readonly sessions: { input: string[]; sessionId: string[]; added: number[]; delta: number[] };
  readonly lines: {
    input: string[];
    sessionId: string[];
    position: number[];
    groupSize: number[];
    messageId: string[];
    correlationId: (string | null)[];
    headers: string[];
    body: string[];
  };
}

/** Column arrays for `unnest`: one entry per touched session (key order) and one per appended message. */
function lineArrays(
  deliveries: readonly Delivery[],
  own: { input: string; sessionId: string } | null,
): LineArrays {
  const groups = new Map<string, { input: string; sessionId: string; deliveries: Delivery[] }>();
  const ownKey = own ? sessionKey(own.input, own.sessionId) : null;
  if (own && ownKey !== null)
    groups.set(ownKey, { input: own.input, sessionId: own.sessionId, deliveries: [] });
  for (const delivery of deliveries) {
    const key = sessionKey(delivery.input, delivery.message.sessionId);
    let group = groups.get(key);
    if (!group) {
      group = { input: delivery.input, sessionId: delivery.message.sessionId, deliveries: [] };
      groups.set(key, group);
    }
    group.deliveries.push(delivery);
  }
  const arrays: LineArrays = {
    sessions: { input: [], sessionId: [], added: [], delta: [] },
    lines: {
      input: [],
      sessionId: [],
      position: [],
      groupSize: [],
      messageId: [],
      correlationId: [],
      headers: [],
      body: [],
    },
  };
  const { sessions, lines } = arrays;
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    const added = group.deliveries.length;
    sessions.input.push(group.input);
    sessions.sessionId.push(group.sessionId);
    sessions.added.push(added);
    sessions.delta.push(key === ownKey ? added - 1 : added);
    group.deliveries.forEach(({ input, message }, index) => {
      lines.input.push(input);
      lines.sessionId.push(message.sessionId);
      lines.position.push(index + 1);
      lines.groupSize.push(added);
      lines.messageId.push(message.messageId);
      lines.correlationId.push(message.correlationId);
      lines.headers.push(JSON.stringify(message.headers));
      lines.body.push(message.body);
    });
  }
  return arrays;
}

/**
 * PostgreSQL fast path for a plain publish: session rows and messages in one autocommitted statement, so the
 * session rows are locked only for that statement (a settling consumer waits for it as little as possible).
 */
export async function publishInOneStatement(
  db: SqlExecutor,
  t: Tables,
  nowMs: string,
  deliveries: readonly Delivery[],
  notifyNow: (inputs: Iterable<string>) => string[],
): Promise<Set<string>> {
  const { sessions, lines } = lineArrays(deliveries, null);
  const inputs = new Set(lines.input);
  await db.all(
    `WITH up AS (
       INSERT INTO ${t.sessions} AS s (input, session_id, last_seq, message_count)
       SELECT k.input, k.session_id, k.added, k.delta
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY AS k(input, session_id, added, delta, ord)
       ORDER BY k.ord
       ON CONFLICT (input, session_id) DO UPDATE SET
         last_seq = s.last_seq + excluded.last_seq, message_count = s.message_count + excluded.message_count
       RETURNING input, session_id, last_seq
     ), ins AS (
       INSERT INTO ${t.messages} (input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, visible_at)
       SELECT d.input, d.session_id, u.last_seq - d.group_size + d.position, d.message_id, d.correlation_id, d.headers,
         d.body, ${nowMs}, ${nowMs}
       FROM unnest($5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[])
         AS d(input, session_id, position, group_size, message_id, correlation_id, headers, body)
       JOIN up u ON u.input = d.input AND u.session_id = d.session_id
       RETURNING input
     )
     SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(pg_notify($13, x)) FROM unnest($14::text[]) AS x) AS notified`,
    [
      sessions.input,
      sessions.sessionId,
      sessions.added,
      sessions.delta,
      lines.input,
      lines.sessionId,
      lines.position,
      lines.groupSize,
      lines.messageId,
      lines.correlationId,
      lines.headers,
      lines.body,
      t.channel,
      notifyNow(inputs),
    ],
    { prepared: true },
  );
  return inputs;
}

export async function settleInOneStatement(
  db: SqlExecutor,
  t: Tables,
  nowMs: string,
  settle: OneStatementSettle,
  notifyNow: (inputs: Iterable<string>) => string[],
): Promise<{ outcome: OneStatementOutcome; inputs: Set<string> }> {
  // The settling session's row is written only when something changes there (state, or copies appended to
  // its own line); otherwise the lease is only read, and `message_count` is corrected when the lease ends.
  const ownKey = sessionKey(settle.input, settle.sessionId);
  const writesOwnRow =
    settle.state !== undefined ||
    settle.deliveries.some((d) => sessionKey(d.input, d.message.sessionId) === ownKey);
  const { sessions, lines } = lineArrays(
    settle.deliveries,
    writesOwnRow ? { input: settle.input, sessionId: settle.sessionId } : null,
  );
  const inputs = new Set(lines.input);
  const dl = settle.deadLetter;
  const sql = `
    WITH del AS (
      DELETE FROM ${t.messages} WHERE input = $1 AND session_id = $2 AND seq = $3 AND held_by = $4 AND delivery_count = $5
        AND EXISTS (SELECT 1 FROM ${t.sessions} WHERE input = $1 AND session_id = $2 AND lock_token = $4
          AND locked_until > ${nowMs})
      RETURNING *
    ), dl AS (
      INSERT INTO ${t.deadLetters} (id, input, session_id, seq, message_id, correlation_id, headers, body, reason,
        description, delivery_count, enqueued_at, dead_lettered_at)
      SELECT $6, input, session_id, seq, message_id, correlation_id, headers, body, $7, $8, delivery_count, enqueued_at, ${nowMs}
      FROM del WHERE $9::boolean
    ), up AS (
      INSERT INTO ${t.sessions} AS s (input, session_id, last_seq, message_count)
      SELECT k.input, k.session_id, k.added, k.delta
      FROM unnest($10::text[], $11::text[], $12::bigint[], $13::bigint[]) WITH ORDINALITY AS k(input, session_id, added, delta, ord)
      WHERE EXISTS (SELECT 1 FROM del)
      ORDER BY k.ord
      ON CONFLICT (input, session_id) DO UPDATE SET
        last_seq = s.last_seq + excluded.last_seq,
        message_count = s.message_count + excluded.message_count,
        state = CASE WHEN s.input = $1 AND s.session_id = $2 AND $14::boolean THEN $15::text ELSE s.state END
      WHERE NOT (s.input = $1 AND s.session_id = $2) OR (s.lock_token = $4 AND s.locked_until > ${nowMs})
      RETURNING input, session_id, last_seq, lock_token
    ), ins AS (
      INSERT INTO ${t.messages} (input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, visible_at)
      SELECT d.input, d.session_id, u.last_seq - d.group_size + d.position, d.message_id, d.correlation_id, d.headers,
        d.body, ${nowMs}, ${nowMs}
      FROM unnest($16::text[], $17::text[], $18::bigint[], $19::bigint[], $20::text[], $21::text[], $22::text[], $23::text[])
        AS d(input, session_id, position, group_size, message_id, correlation_id, headers, body)
      JOIN up u ON u.input = d.input AND u.session_id = d.session_id
      RETURNING input
    )
    SELECT (SELECT count(*) FROM del) AS deleted,
      1 / (CASE WHEN $26::boolean AND EXISTS (SELECT 1 FROM del)
             AND NOT EXISTS (SELECT 1 FROM up WHERE up.input = $1 AND up.session_id = $2 AND up.lock_token = $4)
             THEN 0 ELSE 1 END) AS lease_guard,
      (SELECT count(*) FROM ins) AS inserted,
      (SELECT count(pg_notify($24, x)) FROM unnest($25::text[]) AS x) AS notified`;
  try {
    const [row] = await db.all(
      sql,
      [
        settle.input,
        settle.sessionId,
        settle.sequence,
        settle.leaseToken,
        settle.deliveryCount,
        dl?.id ?? null,
        dl?.reason ?? null,
        dl?.description ?? null,
        dl !== null,
        sessions.input,
        sessions.sessionId,
        sessions.added,
        sessions.delta,
        settle.state !== undefined,
        settle.state ?? null,
        lines.input,
        lines.sessionId,
        lines.position,
        lines.groupSize,
        lines.messageId,
        lines.correlationId,
        lines.headers,
        lines.body,
        t.channel,
        notifyNow(inputs),
        writesOwnRow,
      ],
      { prepared: true },
    );
    if (Number(row?.deleted ?? 0) === 0) return { outcome: 'notHeld', inputs: new Set() };
    return { outcome: 'settled', inputs };
  } catch (error) {
    if ((error as { code?: string }).code === DIVISION_BY_ZERO)
      return { outcome: 'leaseLost', inputs: new Set() };
    throw error;
  }
}
