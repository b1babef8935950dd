import {
  NimBusError,
  NimBusErrorCode,
  type ReceivedMessage,
  type ReceiveOptions,
  uuidv7,
} from '@nimbus/core';
import type { HeldLease } from './held-lease.js';
import { readableReceivedFromRow, UNREADABLE_MESSAGE_REASON } from './rows.js';
import type { Row } from './sql/database.js';

/**
 * Receives up to `max` messages at the head of the leased line, waiting up to `waitMs` for the first. A message
 * that cannot be handed over (headers that are not a JSON object of strings, or larger than this consumer's
 * `maxBatchBytes`) is moved to the dead-letter list at once with reason `UnreadableMessage` and a description
 * naming the problem, so it never loops and never blocks the messages behind it.
 */
export async function receiveFromLine(
  lease: HeldLease,
  { max, waitMs, signal }: ReceiveOptions,
): Promise<ReceivedMessage[]> {
  if (!Number.isInteger(max) || max < 1)
    throw new NimBusError(NimBusErrorCode.InvalidArgument, `receive: max must be an integer ≥ 1, got ${max}`);
  if (!(waitMs >= 0))
    throw new NimBusError(NimBusErrorCode.InvalidArgument, `receive: waitMs must be ≥ 0, got ${waitMs}`);
  const { core } = lease;
  const deadline = Date.now() + waitMs;
  const interval = core.dialect.wakeups.receivePollMs(core.options);
  for (;;) {
    core.lifecycle.assertUsable('receive');
    if (signal?.aborted) return [];
    const { rows, nextDue, othersWaiting } = await core.takeGroup.take(lease, max);
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
    // fallback interval (the dialect's poll schedule).
    const cap = Math.min(remaining, nextDue ?? Number.POSITIVE_INFINITY);
    // 'yield': another session with work needs this slot (no accept loop of this process is free), so the
    // receive returns empty and the session goes.
    const woken = await core.wakeups.wait(
      lease.input,
      lease.sessionId,
      Math.max(1, Math.min(cap, interval)),
      { holdsSession: true, ...(signal ? { signal } : {}) },
    );
    if (woken === 'yield') return [];
  }
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
