import {
  assertDeadLetterReason,
  assertPublishBatchSize,
  assertSessionState,
  assertSettledOnce,
  assertSettleEffects,
  type BatchSettlement,
  type Delivery,
  deadLetterOutcome,
  MAX_DELIVERY_COUNT_REASON,
  maxDeliveryDescription,
  type ParkedMessage,
  parkedMessageNotFound,
  type ReceivedMessage,
  type SessionHandle,
  type SessionState,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
  uuidv7,
  type WakeReason,
} from '@nimbus/core';
import { deleteSessionIfIdle } from './idle-sessions.js';
import { SessionLockLostSignal } from './line-writer.js';
import { settleInOneStatement } from './pg-settle.js';
import { deliveryToken, parkedFromRow, receivedFromRow } from './rows.js';
import type { Row, SqlExecutor } from './sql/database.js';
import type { PublishPlan, SqlCore } from './sql-core.js';
import { workKey } from './wakeups.js';

interface PlannedSettlement {
  readonly message: ReceivedMessage;
  readonly plans: readonly PublishPlan[];
  readonly effects: SettleEffects | undefined;
  readonly deadLetter: { reason: string; description: string | null } | null;
}

/** A lease on one session row; every operation re-checks the lease against the database clock. */
export class SqlSessionHandle implements SessionHandle {
  #lockedUntil: number;

  constructor(
    private readonly core: SqlCore,
    readonly input: string,
    readonly sessionId: string,
    private readonly token: string,
    lockedUntil: number,
  ) {
    this.#lockedUntil = lockedUntil;
  }

  /** When the lease lapses, on this process's clock (the database clock decides; see `localExpiry`). */
  get lockedUntil(): Date {
    return new Date(this.#lockedUntil);
  }

  get #leaseIsValid(): string {
    const { t, now } = this.core;
    return `EXISTS (SELECT 1 FROM ${t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${now})`;
  }

  get #leaseParams(): unknown[] {
    return [this.input, this.sessionId, this.token];
  }

  /** Leading parameters of both dialects' receive statements: take up to `max` messages at the line's head. */
  #takeHeadParams(max: number): unknown[] {
    return [
      this.token,
      this.input,
      this.sessionId,
      this.input,
      this.sessionId,
      this.token,
      max,
      ...this.#leaseParams,
    ];
  }

  async receive(max: number, waitMs: number): Promise<ReceivedMessage[]> {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`receive: max must be an integer ≥ 1, got ${max}`);
    if (!(waitMs >= 0)) throw new RangeError(`receive: waitMs must be ≥ 0, got ${waitMs}`);
    const { core } = this;
    const deadline = Date.now() + waitMs;
    let interval = core.options.minPollIntervalMs;
    for (;;) {
      core.assertOpen();
      if (core.db.dialect === 'postgres') {
        const { received, nextDue } = await this.#receiveOrInspect(max);
        if (received.length > 0) return this.#taken(received);
        if (nextDue === 0) continue;
        const remaining = deadline - Date.now();
        if (remaining <= 0) return [];
        const cap = Math.min(remaining, nextDue ?? Number.POSITIVE_INFINITY);
        if ((await this.#waitForWork(Math.min(cap, this.#pollInterval(interval)))) === 'yield') return [];
        continue;
      }
      const rows = await core.db.all(
        `UPDATE ${core.t.messages} SET held_by = ?, delivery_count = delivery_count + 1
         WHERE input = ? AND session_id = ? AND seq IN (
           SELECT seq FROM ${core.t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
           ORDER BY seq LIMIT ?)
         AND ${this.#leaseIsValid}
         RETURNING input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, delivery_count`,
        this.#takeHeadParams(max),
        { prepared: true },
      );
      if (rows.length > 0) {
        rows.sort((a, b) => Number(a.seq) - Number(b.seq));
        return this.#taken(rows.map((row) => receivedFromRow(row, this.token)));
      }
      await this.#assertLease(core.db);
      const nextDue = await core.promoteDue(this.input);
      if (nextDue === 0) continue;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return [];
      // Not capped by lockedUntil: that is database time, and a skewed client clock would turn it into a busy
      // loop. Every iteration re-checks the lease instead.
      const cap = Math.min(remaining, nextDue ?? Number.POSITIVE_INFINITY);
      if ((await this.#waitForWork(Math.min(cap, this.#pollInterval(interval)))) === 'yield') return [];
      interval = Math.min(interval * 2 || 1, core.options.pollIntervalMs);
    }
  }

  /**
   * PostgreSQL: one round trip takes up to `max` messages or, when there are none, tells whether the lease still
   * holds and when the input's next scheduled copy is due (promoting due ones). `nextDue`: 0 = look again now,
   * null = nothing scheduled, otherwise ms until the next one.
   */
  async #receiveOrInspect(max: number): Promise<{ received: ReceivedMessage[]; nextDue: number | null }> {
    const { core } = this;
    const { t, now } = core;
    const rows = await core.db.all(
      // ARRAY(...) makes the line's head one InitPlan read through the (input, session_id, seq) index; a plain
      // `seq IN (subquery)` can be planned as a re-run per row when statistics predate a long backlog.
      `WITH upd AS (
         UPDATE ${t.messages} SET held_by = ?, delivery_count = delivery_count + 1
         WHERE input = ? AND session_id = ? AND id = ANY(ARRAY(
           SELECT id FROM ${t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
           ORDER BY seq LIMIT ?))
         AND ${this.#leaseIsValid}
         RETURNING input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, delivery_count
       ), info AS (
         SELECT ${this.#leaseIsValid} AS leased,
           (SELECT MIN(due_at) FROM ${t.scheduled} WHERE input = ? AND NOT EXISTS (SELECT 1 FROM upd)) AS due,
           ${now} AS db_now
       )
       SELECT info.leased, info.due, info.db_now, upd.* FROM info LEFT JOIN upd ON true`,
      [...this.#takeHeadParams(max), ...this.#leaseParams, this.input],
      { prepared: true },
    );
    const taken = rows.filter((row) => row.seq !== null && row.seq !== undefined);
    if (taken.length > 0) {
      taken.sort((a, b) => Number(a.seq) - Number(b.seq));
      return { received: taken.map((row) => receivedFromRow(row, this.token)), nextDue: null };
    }
    const info = rows[0];
    if (!info?.leased) throw this.#lockLost();
    if (info.due === null || info.due === undefined) return { received: [], nextDue: null };
    const untilDue = Number(info.due) - Number(info.db_now);
    return { received: [], nextDue: untilDue > 0 ? untilDue : await core.promoteDue(this.input) };
  }

  #taken(received: ReceivedMessage[]): ReceivedMessage[] {
    this.core.wakeups.taken(this.input, this.sessionId);
    return received;
  }

  /**
   * Sleeps until this session gets work, the poll interval passes, or another session with work needs this
   * slot ('yield': no accept loop of this process is free, so the receive returns empty and the session goes).
   */
  #waitForWork(ms: number): Promise<WakeReason> {
    return this.core.wakeups.wait(this.input, this.sessionId, Math.max(1, ms), { holdsSession: true });
  }

  #pollInterval(adaptive: number): number {
    // PostgreSQL is woken by NOTIFY, so it polls only at the fallback interval.
    return this.core.db.dialect === 'postgres' ? this.core.options.pollIntervalMs : adaptive;
  }

  async getState(): Promise<SessionState | null> {
    this.core.assertOpen();
    const rows = await this.core.db.all(
      `SELECT state FROM ${this.core.t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${this.core.now}`,
      this.#leaseParams,
    );
    if (rows.length === 0) throw this.#lockLost();
    const state = rows[0]!.state;
    return state === null || state === undefined ? null : (JSON.parse(String(state)) as SessionState);
  }

  async setState(state: SessionState | null): Promise<void> {
    this.core.assertOpen();
    assertSessionState(state);
    const changed = await this.core.db.run(
      `UPDATE ${this.core.t.sessions} SET state = ? WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${this.core.now}`,
      [state === null ? null : JSON.stringify(state), ...this.#leaseParams],
    );
    if (changed === 0) throw this.#lockLost();
  }

  complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    return this.#settle(message, effects, null);
  }

  async deadLetter(
    message: ReceivedMessage,
    reason: string,
    description: string | null,
    effects?: SettleEffects,
  ): Promise<void> {
    await this.#settle(message, effects, deadLetterOutcome(reason, description));
  }

  async abandon(message: ReceivedMessage): Promise<void> {
    this.core.assertOpen();
    this.#assertHeldShape(message);
    if (message.deliveryCount >= this.core.options.maxDeliveryCount) {
      const max = this.core.options.maxDeliveryCount;
      await this.#settle(message, undefined, {
        reason: MAX_DELIVERY_COUNT_REASON,
        description: maxDeliveryDescription(message.deliveryCount, max),
      });
      return;
    }
    const { t } = this.core;
    const changed = await this.core.db.run(
      `UPDATE ${t.messages} SET held_by = NULL
       WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ? AND delivery_count = ? AND ${this.#leaseIsValid}`,
      [this.input, this.sessionId, message.sequence, this.token, message.deliveryCount, ...this.#leaseParams],
    );
    if (changed === 0) await this.#throwSettleFailure(this.core.db, message);
    this.core.wakeLocal([workKey(this.input, this.sessionId)]);
  }

  async #settle(
    message: ReceivedMessage,
    effects: SettleEffects | undefined,
    deadLetter: { reason: string; description: string | null } | null,
  ): Promise<void> {
    const { core } = this;
    core.assertOpen();
    this.#assertHeldShape(message);
    const publish = effects?.publish ?? [];
    assertPublishBatchSize(publish, core.options.maxBatchBytes);
    const plans = await core.planPublish(publish);
    assertSettleEffects(effects);
    // The one-statement path covers settle, publish and state; anything touching parked rows is transactional.
    const touchesParked =
      (effects?.park?.length ?? 0) +
        (effects?.unpark?.length ?? 0) +
        (effects?.deadLetterParked?.length ?? 0) >
      0;
    if (core.db.dialect === 'postgres' && !touchesParked) {
      await this.#settleInOneStatement(message, plans, effects?.state, deadLetter);
      return;
    }
    await this.#settleInTransaction(message, plans, effects, deadLetter);
  }

  async settleMany(settlements: readonly BatchSettlement[]): Promise<void> {
    const { core } = this;
    core.assertOpen();
    if (!Array.isArray(settlements)) {
      throw new TransportError(
        TransportErrorCode.InvalidArgument,
        'settleMany: settlements must be an array',
      );
    }
    const planned: PlannedSettlement[] = [];
    const sequences = new Set<number>();
    for (const settlement of settlements) {
      const { message, effects, deadLetter } = settlement;
      this.#assertHeldShape(message);
      assertSettledOnce(sequences, message.sequence);
      if (deadLetter) assertDeadLetterReason(deadLetter.reason);
      const publish = effects?.publish ?? [];
      assertPublishBatchSize(publish, core.options.maxBatchBytes);
      const plans = await core.planPublish(publish);
      assertSettleEffects(effects);
      planned.push({ message, plans, effects, deadLetter: deadLetter ?? null });
    }
    if (planned.length === 0) return;
    const oneStatement =
      core.db.dialect === 'postgres' &&
      planned.every(
        ({ effects, plans }) =>
          (effects?.park?.length ?? 0) +
            (effects?.unpark?.length ?? 0) +
            (effects?.deadLetterParked?.length ?? 0) ===
            0 && plans.every((plan) => plan.dueAt === null),
      );
    if (oneStatement) {
      await this.#settleManyInOneStatement(planned);
      return;
    }
    let woken: Set<string>;
    try {
      woken = await core.db.transaction(async (tx) => {
        // Each settlement's own rows in order; the line appends of all of them in one write at the end, in the
        // same order, so sequences come out as they would with one call per settlement.
        const completed = planned.filter((item) => item.deadLetter === null).map((item) => item.message);
        if (completed.length > 1) await this.#removeHeld(tx, completed);
        for (const item of planned) {
          const removed = completed.length > 1 && item.deadLetter === null;
          await this.#settleRows(tx, item.message, item.effects, item.deadLetter, removed);
        }
        let state: string | null | undefined;
        for (const item of planned) {
          const next = item.effects?.state;
          if (next !== undefined) state = next === null ? null : JSON.stringify(next);
        }
        return core.writePlans(
          tx,
          planned.flatMap((item) => item.plans),
          {
            input: this.input,
            sessionId: this.sessionId,
            leaseToken: this.token,
            countDelta: -planned.length,
            state,
          },
        );
      });
    } catch (error) {
      if (error instanceof SessionLockLostSignal) throw this.#lockLost();
      throw error;
    }
    core.wakeLocal(woken);
  }

  /** Removes completed messages in one statement; fails (rolling `tx` back) unless every one was held. */
  async #removeHeld(tx: SqlExecutor, messages: readonly ReceivedMessage[]): Promise<void> {
    const sql = this.core.texts.get(
      'removeHeld',
      messages.length,
      (count) => `DELETE FROM ${this.core.t.messages} WHERE input = ? AND session_id = ? AND held_by = ?
         AND (seq, delivery_count) IN (VALUES ${Array.from({ length: count }, () => '(CAST(? AS bigint), CAST(? AS integer))').join(', ')})
       RETURNING seq`,
    );
    const removed = await tx.all(sql, [
      this.input,
      this.sessionId,
      this.token,
      ...messages.flatMap((m) => [m.sequence, m.deliveryCount]),
    ]);
    if (removed.length === messages.length) return;
    const gone = new Set(removed.map((row) => Number(row.seq)));
    await this.#throwSettleFailure(tx, messages.find((m) => !gone.has(m.sequence))!);
  }

  /**
   * Removes the settled message (dead-lettering it if asked; `alreadyRemoved` when `#removeHeld` did) and applies
   * the parked-message effects, in `tx`.
   */
  async #settleRows(
    tx: SqlExecutor,
    message: ReceivedMessage,
    effects: Omit<SettleEffects, 'publish'> | undefined,
    deadLetter: { reason: string; description: string | null } | null,
    alreadyRemoved = false,
  ): Promise<void> {
    const { core } = this;
    const { t, now } = core;
    if (!alreadyRemoved) {
      const removed = await tx.all(
        `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND seq = ? AND held_by = ? AND delivery_count = ?
         RETURNING *`,
        [this.input, this.sessionId, message.sequence, this.token, message.deliveryCount],
      );
      if (removed.length === 0) await this.#throwSettleFailure(tx, message);
      if (deadLetter) await core.insertDeadLetter(tx, removed[0]!, deadLetter.reason, deadLetter.description);
    }
    for (const { sequence, message: parked } of effects?.park ?? []) {
      await tx.run(
        `INSERT INTO ${t.parked} (input, session_id, seq, message_id, correlation_id, headers, body, parked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ${now}) ON CONFLICT (input, session_id, seq) DO NOTHING`,
        [
          this.input,
          this.sessionId,
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
        [this.input, this.sessionId, sequence],
      );
      if (!parked) throw parkedMessageNotFound(this.input, this.sessionId, sequence);
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
        this.input,
        this.sessionId,
        sequence,
      ]);
    }
  }

  async #settleInTransaction(
    message: ReceivedMessage,
    plans: readonly PublishPlan[],
    effects: Omit<SettleEffects, 'publish'> | undefined,
    deadLetter: { reason: string; description: string | null } | null,
  ): Promise<void> {
    const { core } = this;
    let woken: Set<string>;
    try {
      woken = await core.db.transaction(async (tx) => {
        await this.#settleRows(tx, message, effects, deadLetter);
        const state = effects?.state;
        return core.writePlans(tx, plans, {
          input: this.input,
          sessionId: this.sessionId,
          leaseToken: this.token,
          countDelta: -1,
          state: state === undefined ? undefined : state === null ? null : JSON.stringify(state),
        });
      });
    } catch (error) {
      if (error instanceof SessionLockLostSignal) throw this.#lockLost();
      throw error;
    }
    core.wakeLocal(woken);
  }

  async #settleInOneStatement(
    message: ReceivedMessage,
    plans: readonly PublishPlan[],
    state: SessionState | null | undefined,
    deadLetter: { reason: string; description: string | null } | null,
  ): Promise<void> {
    const { core } = this;
    const deliveries: Delivery[] = [];
    let scheduled = false;
    for (const plan of plans) {
      if (plan.dueAt === null) deliveries.push(...plan.deliveries);
      else scheduled = true;
    }
    if (scheduled) {
      // Scheduled copies go to their own table: take the general transactional path.
      await this.#settleInTransaction(message, plans, { state }, deadLetter);
      return;
    }
    const { outcome, inputs } = await this.#runOneStatement(
      [{ message, deadLetter }],
      state === undefined ? undefined : state === null ? null : JSON.stringify(state),
      deliveries,
    );
    // With one message only the lease check can trip the guard.
    if (outcome === 'guard') throw this.#lockLost();
    if (outcome === 'notHeld') await this.#throwSettleFailure(core.db, message);
    core.wakeLocal(inputs);
  }

  /** PostgreSQL: settles these held messages, with `state` and `deliveries`, in one statement. */
  #runOneStatement(
    settled: readonly Pick<PlannedSettlement, 'message' | 'deadLetter'>[],
    state: string | null | undefined,
    deliveries: readonly Delivery[],
  ): ReturnType<typeof settleInOneStatement> {
    const { core } = this;
    return settleInOneStatement(
      core.db,
      core.t,
      core.now,
      {
        input: this.input,
        sessionId: this.sessionId,
        leaseToken: this.token,
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
  async #settleManyInOneStatement(planned: readonly PlannedSettlement[]): Promise<void> {
    const { core } = this;
    const deliveries = planned.flatMap((item) => item.plans.flatMap((plan) => plan.deliveries));
    let state: string | null | undefined;
    for (const item of planned) {
      const next = item.effects?.state;
      if (next !== undefined) state = next === null ? null : JSON.stringify(next);
    }
    const { outcome, inputs } = await this.#runOneStatement(planned, state, deliveries);
    if (outcome !== 'settled') {
      await this.#assertLease(core.db);
      throw new TransportError(
        TransportErrorCode.MessageLockLost,
        `settleMany: not every message of session '${this.sessionId}' at '${this.input}' is held by this lease (already settled, purged or redelivered); nothing was settled`,
      );
    }
    core.wakeLocal(inputs);
  }

  async readParked(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    this.core.assertOpen();
    await this.#assertLease(this.core.db);
    const rows = await this.core.db.all(
      `SELECT * FROM ${this.core.t.parked} WHERE input = ? AND session_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
      [this.input, this.sessionId, fromSequence, max],
    );
    return rows.map(parkedFromRow);
  }

  async renewLock(): Promise<Date> {
    this.core.assertOpen();
    const { t, now } = this.core;
    const askedAt = Date.now();
    const rows = await this.core.db.all(
      `UPDATE ${t.sessions} SET locked_until = ${now} + ?
       WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${now}
       RETURNING locked_until, ${now} AS db_now`,
      [this.core.options.lockDurationMs, ...this.#leaseParams],
    );
    if (rows.length === 0) throw this.#lockLost();
    this.#lockedUntil = localExpiry(askedAt, rows[0]!);
    return this.lockedUntil;
  }

  async release(): Promise<void> {
    this.core.assertOpen();
    const { t, now } = this.core;
    const released = await this.core.db.transaction(async (tx) => {
      // Only a live lease hands its messages back uncounted; a lapsed one already counted them.
      await tx.run(
        `UPDATE ${t.messages} SET held_by = NULL, delivery_count = CASE WHEN delivery_count > 0 THEN delivery_count - 1 ELSE 0 END
         WHERE input = ? AND session_id = ? AND held_by = ? AND ${this.#leaseIsValid}`,
        [...this.#leaseParams, ...this.#leaseParams],
      );
      // Settling does not always decrement message_count, so the lease's end sets it exactly. The row lock
      // comes first: publishers lock the row before inserting, so the count below misses no committed message
      // and later ones add to it.
      const locked = await tx.all(
        `SELECT 1 AS held FROM ${t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ?${this.core.db.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
        this.#leaseParams,
      );
      if (locked.length === 0) return null;
      // locked_until = now stamps the end of this turn: accept-next serves sessions in that order, so a session
      // released with work waiting goes behind the ones that have waited longer (see tryLease).
      const [left] = await tx.all(
        `UPDATE ${t.sessions} SET lock_token = NULL, locked_until = ${now},
           message_count = (SELECT COUNT(*) FROM ${t.messages} WHERE input = ? AND session_id = ?)
         WHERE input = ? AND session_id = ? AND lock_token = ? RETURNING message_count`,
        [this.input, this.sessionId, ...this.#leaseParams],
      );
      if (Number(left?.message_count ?? 0) === 0) {
        // Under the row lock the count is exact, so an idle session's row can go now (no publisher is mid-write).
        await deleteSessionIfIdle(tx, this.core, this.input, this.sessionId);
        return null;
      }
      const work = new Set([workKey(this.input, this.sessionId)]);
      await this.core.notifyInTransaction(tx, work);
      return work;
    });
    if (released) this.core.wakeLocal(released);
  }

  #assertHeldShape(message: ReceivedMessage): void {
    if (
      message.input !== this.input ||
      message.sessionId !== this.sessionId ||
      message.lockToken !== deliveryToken(this.token, message.deliveryCount)
    ) {
      throw new TransportError(
        TransportErrorCode.MessageLockLost,
        `Message ${message.sequence} of session '${message.sessionId}' at '${message.input}' was not received through this session lease`,
      );
    }
  }

  async #assertLease(executor: SqlExecutor): Promise<void> {
    const rows = await executor.all(
      `SELECT 1 AS held FROM ${this.core.t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${this.core.now}`,
      this.#leaseParams,
      { prepared: true },
    );
    if (rows.length === 0) throw this.#lockLost();
  }

  /** After a settle matched no row: the lease is gone, or the message is (settled, purged or redelivered). */
  async #throwSettleFailure(executor: SqlExecutor, message: ReceivedMessage): Promise<never> {
    await this.#assertLease(executor);
    throw new TransportError(
      TransportErrorCode.MessageLockLost,
      `Message ${message.sequence} of session '${this.sessionId}' at '${this.input}' is not held by this lease (already settled, purged or redelivered)`,
    );
  }

  #lockLost(): TransportError {
    return new TransportError(
      TransportErrorCode.SessionLockLost,
      `Lock on session '${this.sessionId}' at '${this.input}' was lost (expired, released or taken over)`,
    );
  }
}

/**
 * Translates a lease expiry from database time into this process's clock: the remaining lease measured by the
 * database, counted from when the request was sent (so never later than the true expiry). Callers schedule
 * renewals against their own clock, which may be skewed from the database server's.
 */
export function localExpiry(askedAt: number, row: Row): number {
  return askedAt + (Number(row.locked_until) - Number(row.db_now));
}
