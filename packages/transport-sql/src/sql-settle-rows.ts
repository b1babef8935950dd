import type { ReceivedMessage, SettleEffects } from '@nimbus/core';
import { parkedMessageNotFound } from '@nimbus/core/transport-spi';
import type { HeldLease } from './held-lease.js';
import { SessionLockLostSignal } from './line-writer.js';
import type { PublishPlan } from './publish-plan.js';
import type { SqlExecutor } from './sql/database.js';

// Settlement of a leased session's messages in one transaction: removing settled rows, parked effects, the
// published copies and the new state. Every dialect can take this path; PostgreSQL takes a one-statement path
// when nothing touches parked rows (settle-paths.ts, dialect/postgres/settle.ts).

export interface PlannedSettlement {
  readonly message: ReceivedMessage;
  readonly plans: readonly PublishPlan[];
  readonly effects: SettleEffects | undefined;
  readonly deadLetter: { reason: string; description: string | null } | null;
}

/** Removes completed messages in one statement; fails (rolling `tx` back) unless every one was held. */
export async function removeHeld(
  lease: HeldLease,
  tx: SqlExecutor,
  messages: readonly ReceivedMessage[],
): Promise<void> {
  const sql = lease.core.texts.get(
    'removeHeld',
    messages.length,
    (count) => `DELETE FROM ${lease.core.t.messages} WHERE input = ? AND session_id = ? AND held_by = ?
         AND (seq, delivery_count) IN (VALUES ${Array.from({ length: count }, () => '(CAST(? AS bigint), CAST(? AS integer))').join(', ')})
         AND ${lease.validSql}
       RETURNING seq`,
  );
  // The fence: the lease (its token, unexpired) is checked in the statement that removes the messages.
  const removed = await tx.all(sql, [
    lease.input,
    lease.sessionId,
    lease.token,
    ...messages.flatMap((m) => [m.sequence, m.deliveryCount]),
    ...lease.params,
  ]);
  if (removed.length === messages.length) return;
  const gone = new Set(removed.map((row) => Number(row.seq)));
  await lease.throwSettleFailure(tx, messages.find((m) => !gone.has(m.sequence))!);
}

/**
 * Removes the settled message (dead-lettering it if asked; `alreadyRemoved` when `removeHeld` did) and applies
 * the parked-message effects, in `tx`.
 */
export async function settleRows(
  lease: HeldLease,
  tx: SqlExecutor,
  message: ReceivedMessage,
  effects: Omit<SettleEffects, 'publish'> | undefined,
  deadLetter: { reason: string; description: string | null } | null,
  alreadyRemoved = false,
): Promise<void> {
  const { core } = lease;
  const { t, now } = core;
  if (!alreadyRemoved) {
    // The fence: the lease (its token, unexpired) is checked in the statement that removes the message.
    const removed = await tx.all(
      `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ? AND delivery_count = ?
         AND ${lease.validSql}
         RETURNING *`,
      [lease.input, lease.sessionId, message.sequence, lease.token, message.deliveryCount, ...lease.params],
    );
    if (removed.length === 0) await lease.throwSettleFailure(tx, message);
    if (deadLetter) await core.insertDeadLetter(tx, removed[0]!, deadLetter.reason, deadLetter.description);
  }
  for (const { sequence, message: parked } of effects?.park ?? []) {
    await tx.run(
      `INSERT INTO ${t.parked} (input, session_id, seq, message_id, correlation_id, headers, body, parked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ${now}) ON CONFLICT (input, session_id, seq) DO NOTHING`,
      [
        lease.input,
        lease.sessionId,
        sequence,
        parked.messageId,
        parked.correlationId,
        JSON.stringify(parked.headers),
        parked.body,
      ],
    );
  }
  for (const { sequence, reason, description } of effects?.deadLetterParked ?? []) {
    const [parked] = await tx.all(
      `DELETE FROM ${t.parked} WHERE input = ? AND session_id = ? AND seq = ? RETURNING *`,
      [lease.input, lease.sessionId, sequence],
    );
    if (!parked) throw parkedMessageNotFound(lease.input, lease.sessionId, sequence);
    // A parked message was never delivered from the line as itself; it joins the list as it was parked.
    await core.insertDeadLetter(
      tx,
      { ...parked, delivery_count: 0, enqueued_at: parked.parked_at },
      reason,
      description,
    );
  }
  for (const sequence of effects?.unpark ?? []) {
    await tx.run(`DELETE FROM ${t.parked} WHERE input = ? AND session_id = ? AND seq = ?`, [
      lease.input,
      lease.sessionId,
      sequence,
    ]);
  }
}

/** One settlement and its effects in one transaction. */
export async function settleInTransaction(lease: HeldLease, settlement: PlannedSettlement): Promise<void> {
  const { core } = lease;
  const { message, plans, effects, deadLetter } = settlement;
  let woken: Set<string>;
  try {
    woken = await core.db.transaction(async (tx) => {
      await settleRows(lease, tx, message, effects, deadLetter);
      return core.writePlans(tx, plans, {
        input: lease.input,
        sessionId: lease.sessionId,
        leaseToken: lease.token,
        countDelta: -1,
        state: stateText(effects?.state),
      });
    });
  } catch (error) {
    if (error instanceof SessionLockLostSignal) throw lease.lockLost();
    throw error;
  }
  core.wakeLocal(woken);
}

/**
 * A batch of settlements in one transaction: each settlement's own rows in order, then the line appends of all
 * of them in one write at the end, in the same order, so sequences come out as they would with one call each.
 */
export async function settleManyInTransaction(
  lease: HeldLease,
  planned: readonly PlannedSettlement[],
): Promise<void> {
  const { core } = lease;
  let woken: Set<string>;
  try {
    woken = await core.db.transaction(async (tx) => {
      const completed = planned.filter((item) => item.deadLetter === null).map((item) => item.message);
      if (completed.length > 1) await removeHeld(lease, tx, completed);
      for (const item of planned) {
        const removed = completed.length > 1 && item.deadLetter === null;
        await settleRows(lease, tx, item.message, item.effects, item.deadLetter, removed);
      }
      return core.writePlans(
        tx,
        planned.flatMap((item) => item.plans),
        {
          input: lease.input,
          sessionId: lease.sessionId,
          leaseToken: lease.token,
          countDelta: -planned.length,
          state: lastState(planned),
        },
      );
    });
  } catch (error) {
    if (error instanceof SessionLockLostSignal) throw lease.lockLost();
    throw error;
  }
  core.wakeLocal(woken);
}

/** A new session state as stored: JSON text, `null` to clear, `undefined` to keep. */
export function stateText(state: SettleEffects['state']): string | null | undefined {
  return state === undefined ? undefined : state === null ? null : JSON.stringify(state);
}

/** The state the last settlement that sets one asks for (JSON text, `null`, or `undefined` to keep). */
export function lastState(planned: readonly PlannedSettlement[]): string | null | undefined {
  let state: string | null | undefined;
  for (const item of planned) {
    const next = item.effects?.state;
    if (next !== undefined) state = next === null ? null : JSON.stringify(next);
  }
  return state;
}
