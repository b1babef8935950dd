import { TransportError, TransportErrorCode, uuidv7 } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';
import type { HeldLease } from '../../held-lease.js';
import { sessionKey } from '../../line-writer.js';
import type { SqlExecutor } from '../../sql/database.js';
import { hasProjected } from '../../sql-core.js';
import {
  lastState,
  type PlannedSettlement,
  settleInTransaction,
  settleManyInTransaction,
  stateText,
} from '../../sql-settle-rows.js';
import type { Tables } from '../../tables.js';
import type { DialectSettle } from '../dialect.js';
import { lineArrays, lineInsertSql, sessionUpsertSql } from './line-append.js';

// Settlement on PostgreSQL. The common case (nothing touches parked rows, no scheduled copies) is one statement of
// data-modifying CTEs: one round trip and one commit however many messages are settled. Anything else takes the
// transactional path every dialect shares.

export const postgresSettle: DialectSettle = {
  async one(lease, settlement) {
    const { message, plans, effects, deadLetter } = settlement;
    if (touchesParked(settlement) || plans.some((plan) => plan.dueAt !== null) || hasProjected(plans)) {
      await settleInTransaction(lease, settlement);
      return;
    }
    const { outcome, inputs } = await runOneStatement(
      lease,
      [{ message, deadLetter }],
      stateText(effects?.state),
      plans.flatMap((plan) => plan.deliveries),
    );
    // With one message only the lease check can trip the guard.
    if (outcome === 'guard') throw lease.lockLost();
    if (outcome === 'notHeld') await lease.throwSettleFailure(lease.core.db, message);
    lease.core.wakeLocal(inputs);
  },
  async many(lease, planned) {
    const oneStatement = planned.every(
      (item) =>
        !touchesParked(item) && item.plans.every((plan) => plan.dueAt === null) && !hasProjected(item.plans),
    );
    if (oneStatement) await settleManyInOneStatement(lease, planned);
    else await settleManyInTransaction(lease, planned);
  },
};

function touchesParked({ effects }: PlannedSettlement): boolean {
  return (
    (effects?.park?.length ?? 0) + (effects?.unpark?.length ?? 0) + (effects?.deadLetterParked?.length ?? 0) >
    0
  );
}

/** One settled message of a one-statement settlement. */
export interface OneStatementMessage {
  readonly sequence: number;
  readonly deliveryCount: number;
  readonly deadLetter: {
    readonly id: string;
    readonly reason: string;
    readonly description: string | null;
  } | null;
}

export interface OneStatementSettle {
  readonly input: string;
  readonly sessionId: string;
  readonly leaseToken: string;
  /** Settled together: all are removed or none is. */
  readonly messages: readonly OneStatementMessage[];
  /** JSON text, `null` to clear, `undefined` to keep. */
  readonly state: string | null | undefined;
  readonly deliveries: readonly Delivery[];
}

/** `guard`: the statement was rolled back because the lease check failed or only some messages were held. */
export type OneStatementOutcome = 'settled' | 'notHeld' | 'guard';

const DIVISION_BY_ZERO = '22012';

/**
 * The one-statement path for settlements that touch no parked rows: removes the messages, dead-letters those that
 * ask for it, updates the session row (only while the lease holds), appends the published copies and notifies
 * listeners, all in one statement, so one round trip and one commit however many messages are settled.
 * Data-modifying CTEs share the statement's atomicity: if messages were removed but the lease check failed, or
 * only some of the messages were held, the guard divides by zero and the whole statement rolls back.
 */
async function settleInOneStatement(
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
  const count = settle.messages.length;
  const { sessions, lines, inputs } = lineArrays(
    settle.deliveries,
    writesOwnRow ? { input: settle.input, sessionId: settle.sessionId } : null,
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
        settle.input,
        settle.sessionId,
        settle.messages.map((m) => m.sequence),
        settle.leaseToken,
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
        notifyNow(inputs),
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

/** Settles these held messages, with `state` and `deliveries`, in one statement. */
function runOneStatement(
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

/** Settlements without parked effects or scheduled copies, in one statement. */
async function settleManyInOneStatement(
  lease: HeldLease,
  planned: readonly PlannedSettlement[],
): Promise<void> {
  const { core } = lease;
  const deliveries = planned.flatMap((item) => item.plans.flatMap((plan) => plan.deliveries));
  const { outcome, inputs } = await runOneStatement(lease, planned, lastState(planned), deliveries);
  if (outcome !== 'settled') {
    await lease.assertLease(core.db);
    throw new TransportError(
      TransportErrorCode.MessageLockLost,
      `settleMany: not every message of session '${lease.sessionId}' at '${lease.input}' is held by this lease (already settled, purged or redelivered); nothing was settled`,
    );
  }
  core.wakeLocal(inputs);
}
