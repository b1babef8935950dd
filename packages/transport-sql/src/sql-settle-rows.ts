import {
  type ReceivedMessage,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
  uuidv7,
} from '@nimbus/core';
import { type Delivery, parkedMessageNotFound } from '@nimbus/core/transport-spi';
import type { HeldLease } from './held-lease.js';
import { settleInOneStatement } from './pg-settle.js';
import type { SqlExecutor } from './sql/database.js';
import type { PublishPlan } from './sql-core.js';

// Row-level settlement of a leased session's messages: removing settled rows, parked effects, and PostgreSQL's
// one-statement settle.

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
       RETURNING seq`,
  );
  const removed = await tx.all(sql, [
    lease.input,
    lease.sessionId,
    lease.token,
    ...messages.flatMap((m) => [m.sequence, m.deliveryCount]),
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
    const removed = await tx.all(
      `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ? AND delivery_count = ?
         RETURNING *`,
      [lease.input, lease.sessionId, message.sequence, lease.token, message.deliveryCount],
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

/** PostgreSQL: settles these held messages, with `state` and `deliveries`, in one statement. */
export function runOneStatement(
  lease: HeldLease,
  settled: readonly Pick<PlannedSettlement, 'message' | 'deadLetter'>[],
  state: string | null | undefined,
  deliveries: readonly Delivery[],
): ReturnType<typeof settleInOneStatement> {
  const { core } = lease;
  return settleInOneStatement(
    core.db,
    core.t,
    core.now,
    {
      input: lease.input,
      sessionId: lease.sessionId,
      leaseToken: lease.token,
      messages: settled.map(({ message, deadLetter }) => ({
        sequence: message.sequence,
        deliveryCount: message.deliveryCount,
        deadLetter: deadLetter ? { id: uuidv7(), ...deadLetter } : null,
      })),
      state,
      deliveries,
    },
    (touched) => core.notifyNow(touched),
  );
}

/** PostgreSQL: settlements without parked effects or scheduled copies, in one statement. */
export async function settleManyInOneStatement(
  lease: HeldLease,
  planned: readonly PlannedSettlement[],
): Promise<void> {
  const { core } = lease;
  const deliveries = planned.flatMap((item) => item.plans.flatMap((plan) => plan.deliveries));
  let state: string | null | undefined;
  for (const item of planned) {
    const next = item.effects?.state;
    if (next !== undefined) state = next === null ? null : JSON.stringify(next);
  }
  const { outcome, inputs } = await runOneStatement(lease, planned, state, deliveries);
  if (outcome !== 'settled') {
    await lease.assertLease(core.db);
    throw new TransportError(
      TransportErrorCode.MessageLockLost,
      `settleMany: not every message of session '${lease.sessionId}' at '${lease.input}' is held by this lease (already settled, purged or redelivered); nothing was settled`,
    );
  }
  core.wakeLocal(inputs);
}
