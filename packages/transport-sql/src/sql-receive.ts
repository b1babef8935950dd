import { type ReceivedMessage, uuidv7 } from '@nimbus/core';
import type { HeldLease } from './held-lease.js';
import { readableReceivedFromRow, UNREADABLE_MESSAGE_REASON } from './rows.js';
import type { Row } from './sql/database.js';
import type { SqlCore } from './sql-core.js';

/**
 * The byte size of a stored message, computed by the database so that a body larger than this consumer accepts
 * is never loaded into the process: the receive returns its body only when it fits.
 */
function storedBytes(core: SqlCore): string {
  return core.db.dialect === 'postgres'
    ? '(octet_length(body) + octet_length(headers))'
    : '(length(CAST(body AS BLOB)) + length(CAST(headers AS BLOB)))';
}

function returning(core: SqlCore): string {
  const bytes = storedBytes(core);
  return `RETURNING input, session_id, seq, message_id, correlation_id, headers,
    CASE WHEN ${bytes} <= ? THEN body END AS body, ${bytes} AS stored_bytes, enqueued_at, delivery_count`;
}

/** Leading parameters of both dialects' receive statements: take up to `max` messages at the line's head. */
function takeHeadParams(lease: HeldLease, max: number): unknown[] {
  return [
    lease.token,
    lease.input,
    lease.sessionId,
    lease.input,
    lease.sessionId,
    lease.token,
    max,
    ...lease.params,
  ];
}

/**
 * Receives up to `max` messages at the head of the leased line, waiting up to `waitMs` for the first. A message
 * that cannot be handed over (headers that are not a JSON object of strings, or larger than this consumer's
 * `maxBatchBytes`) is moved to the dead-letter list at once with reason `UnreadableMessage` and a description
 * naming the problem, so it never loops and never blocks the messages behind it.
 */
export async function receiveFromLine(
  lease: HeldLease,
  max: number,
  waitMs: number,
): Promise<ReceivedMessage[]> {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`receive: max must be an integer ≥ 1, got ${max}`);
  if (!(waitMs >= 0)) throw new RangeError(`receive: waitMs must be ≥ 0, got ${waitMs}`);
  const { core } = lease;
  const deadline = Date.now() + waitMs;
  let interval = core.options.minPollIntervalMs;
  for (;;) {
    core.assertOpen();
    let rows: Row[];
    let nextDue: number | null;
    let othersWaiting = false;
    if (core.db.dialect === 'postgres') {
      ({ rows, nextDue, othersWaiting } = await takeOrInspect(lease, max));
    } else {
      rows = await core.db.all(
        `UPDATE ${core.t.messages} SET held_by = ?, delivery_count = delivery_count + 1
         WHERE input = ? AND session_id = ? AND seq IN (
           SELECT seq FROM ${core.t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
           ORDER BY seq LIMIT ?)
         AND ${lease.validSql}
         ${returning(core)}`,
        [...takeHeadParams(lease, max), core.options.maxBatchBytes],
        { prepared: true },
      );
      nextDue = null;
      if (rows.length === 0) {
        await lease.assertLease(core.db);
        nextDue = await core.promoteDue(lease.input);
        if (core.wakeups.acceptsRunning(lease.input) === 0) {
          const waiting = await core.db.all(
            `SELECT 1 AS waiting FROM ${core.t.sessions} ${anotherSessionWaits(core)} LIMIT 1`,
            [lease.input],
            { prepared: true },
          );
          othersWaiting = waiting.length > 0;
        }
      }
    }
    if (rows.length > 0) {
      const received = await handOver(lease, rows);
      if (received.length > 0) {
        core.wakeups.taken(lease.input, lease.sessionId);
        return received;
      }
      continue; // everything taken was unreadable and is dead-lettered: look at the line again
    }
    if (nextDue === 0) continue;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return [];
    // This line is empty and another session waits with no accept of this process running to take it: the
    // session goes now rather than after the idle timeout (the wake-ups for that work may have gone elsewhere).
    if (othersWaiting && core.wakeups.acceptsRunning(lease.input) === 0) return [];
    // Not capped by lockedUntil: that is database time, and a skewed client clock would turn it into a busy
    // loop. Every iteration re-checks the lease instead. PostgreSQL is woken by NOTIFY, so it polls only at the
    // fallback interval.
    const cap = Math.min(remaining, nextDue ?? Number.POSITIVE_INFINITY);
    const poll = core.db.dialect === 'postgres' ? core.options.pollIntervalMs : interval;
    // 'yield': another session with work needs this slot (no accept loop of this process is free), so the
    // receive returns empty and the session goes.
    const woken = await core.wakeups.wait(lease.input, lease.sessionId, Math.max(1, Math.min(cap, poll)), {
      holdsSession: true,
    });
    if (woken === 'yield') return [];
    if (core.db.dialect !== 'postgres') interval = Math.min(interval * 2 || 1, core.options.pollIntervalMs);
  }
}

/**
 * PostgreSQL: one round trip takes up to `max` messages or, when there are none, tells whether the lease still
 * holds and when the input's next scheduled copy is due (promoting due ones). `nextDue`: 0 = look again now,
 * null = nothing scheduled, otherwise ms until the next one.
 */
async function takeOrInspect(
  lease: HeldLease,
  max: number,
): Promise<{ rows: Row[]; nextDue: number | null; othersWaiting: boolean }> {
  const { core } = lease;
  const { t, now } = core;
  const rows = await core.db.all(
    // ARRAY(...) makes the line's head one InitPlan read through the (input, session_id, seq) index; a plain
    // `seq IN (subquery)` can be planned as a re-run per row when statistics predate a long backlog.
    `WITH upd AS (
       UPDATE ${t.messages} SET held_by = ?, delivery_count = delivery_count + 1
       WHERE input = ? AND session_id = ? AND id = ANY(ARRAY(
         SELECT id FROM ${t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
         ORDER BY seq LIMIT ?))
       AND ${lease.validSql}
       ${returning(core)}
     ), info AS (
       SELECT ${lease.validSql} AS leased,
         (SELECT MIN(due_at) FROM ${t.scheduled} WHERE input = ? AND NOT EXISTS (SELECT 1 FROM upd)) AS due,
         EXISTS (SELECT 1 FROM ${t.sessions} ${anotherSessionWaits(core)} AND NOT EXISTS (SELECT 1 FROM upd))
           AS others_waiting,
         ${now} AS db_now
     )
     SELECT info.leased, info.due, info.others_waiting, info.db_now, upd.* FROM info LEFT JOIN upd ON true`,
    [...takeHeadParams(lease, max), core.options.maxBatchBytes, ...lease.params, lease.input, lease.input],
    { prepared: true },
  );
  const taken = rows.filter((row) => row.seq !== null && row.seq !== undefined);
  if (taken.length > 0) return { rows: taken, nextDue: null, othersWaiting: false };
  const info = rows[0];
  if (!info?.leased) throw lease.lockLost();
  const othersWaiting = info.others_waiting === true;
  if (info.due === null || info.due === undefined) return { rows: [], nextDue: null, othersWaiting };
  const untilDue = Number(info.due) - Number(info.db_now);
  return {
    rows: [],
    nextDue: untilDue > 0 ? untilDue : await core.promoteDue(lease.input),
    othersWaiting,
  };
}

/**
 * `WHERE` clause over the sessions table: another session of the input (parameter) has messages and no live
 * lease, so it waits for a consumer. The lease this receive holds keeps its own session out. Served by the
 * partial `ready` index.
 */
function anotherSessionWaits(core: SqlCore): string {
  return `WHERE input = ? AND message_count > 0 AND locked_until <= ${core.now}`;
}

/**
 * The readable rows as received messages, in line order; the unreadable ones are dead-lettered here (if that
 * fails, the call fails and the lease's release hands every taken message back uncounted).
 */
async function handOver(lease: HeldLease, rows: Row[]): Promise<ReceivedMessage[]> {
  rows.sort((a, b) => Number(a.seq) - Number(b.seq));
  const received: ReceivedMessage[] = [];
  const unreadable: { seq: number; problem: string }[] = [];
  for (const row of rows) {
    const read = readableReceivedFromRow(row, lease.token, lease.core.options.maxBatchBytes);
    if (typeof read === 'string') unreadable.push({ seq: Number(row.seq), problem: read });
    else received.push(read);
  }
  if (unreadable.length > 0) await deadLetterUnreadable(lease, unreadable);
  return received;
}

/** Moves held, unreadable messages to the dead-letter list in SQL (their bodies never reach this process). */
async function deadLetterUnreadable(
  lease: HeldLease,
  unreadable: readonly { seq: number; problem: string }[],
): Promise<void> {
  const { core } = lease;
  const { t, now } = core;
  await core.db.transaction(async (tx) => {
    for (const { seq, problem } of unreadable) {
      const moved = await tx.run(
        `INSERT INTO ${t.deadLetters} (id, input, session_id, seq, message_id, correlation_id, headers, body, reason,
           description, delivery_count, enqueued_at, dead_lettered_at)
         SELECT ?, input, session_id, seq, message_id, correlation_id, headers, body, ?, ?, delivery_count, enqueued_at, ${now}
         FROM ${t.messages} WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ? AND ${lease.validSql}`,
        [
          uuidv7(),
          UNREADABLE_MESSAGE_REASON,
          problem,
          lease.input,
          lease.sessionId,
          seq,
          lease.token,
          ...lease.params,
        ],
      );
      if (moved === 0) throw lease.lockLost();
      await tx.run(
        `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ?`,
        [lease.input, lease.sessionId, seq, lease.token],
      );
    }
  });
  core.logger.warn(
    { input: lease.input, sessionId: lease.sessionId, unreadable },
    'Dead-lettered unreadable messages at receive.',
  );
}
