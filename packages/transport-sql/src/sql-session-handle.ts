import {
  type BatchSettlement,
  type DeadLetterOptions,
  type DeadLetterReason,
  MAX_DELIVERY_COUNT_REASON,
  type ParkedMessage,
  type ReceivedMessage,
  type ReceiveOptions,
  type SessionHandle,
  type SessionState,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import {
  assertDeadLetterReason,
  assertPublishBatchSize,
  assertSessionState,
  assertSettledOnce,
  assertSettleEffects,
  deadLetterOutcome,
  maxDeliveryDescription,
} from '@nimbus/core/transport-spi';
import type { HeldLease } from './held-lease.js';
import { deliveryToken, parkedFromRow } from './rows.js';
import { releaseLease } from './session-release.js';
import type { Row, SqlExecutor } from './sql/database.js';
import type { SqlCore } from './sql-core.js';
import { receiveFromLine } from './sql-receive.js';
import type { PlannedSettlement } from './sql-settle-rows.js';
import { workKey } from './wakeups.js';

/** A lease on one session row; every operation re-checks the lease against the database clock. */
export class SqlSessionHandle implements SessionHandle {
  #lockedUntil: number;
  /**
   * The session state as the lease read it (JSON text or null), until this lease changes it or reads it once:
   * only the holder writes the state, so the first `getState` of a turn costs no statement. Undefined: unknown.
   */
  #stateAtLease: string | null | undefined;

  constructor(
    private readonly core: SqlCore,
    readonly input: string,
    readonly sessionId: string,
    private readonly token: string,
    lockedUntil: number,
    stateAtLease?: string | null,
  ) {
    this.#lockedUntil = lockedUntil;
    this.#stateAtLease = stateAtLease;
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

  receive(options: ReceiveOptions): Promise<ReceivedMessage[]> {
    return receiveFromLine(this.#held, options);
  }

  /** This lease as the receive path sees it. */
  get #held(): HeldLease {
    return {
      core: this.core,
      input: this.input,
      sessionId: this.sessionId,
      token: this.token,
      validSql: this.#leaseIsValid,
      params: this.#leaseParams,
      lockLost: () => this.#lockLost(),
      assertLease: (executor) => this.#assertLease(executor),
      throwSettleFailure: (executor, message) => this.#throwSettleFailure(executor, message),
    };
  }

  async getState(): Promise<SessionState | null> {
    this.core.lifecycle.assertUsable('getState');
    const known = this.#stateAtLease;
    this.#stateAtLease = undefined;
    // The lease is certainly live before its local expiry (see localExpiry), so the state read with it holds.
    if (known !== undefined && Date.now() < this.#lockedUntil)
      return known === null ? null : (JSON.parse(known) as SessionState);
    const rows = await this.core.db.all(
      `SELECT state FROM ${this.core.t.sessions} WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${this.core.now}`,
      this.#leaseParams,
    );
    if (rows.length === 0) throw this.#lockLost();
    const state = rows[0]!.state;
    return state === null || state === undefined ? null : (JSON.parse(String(state)) as SessionState);
  }

  async setState(state: SessionState | null): Promise<void> {
    this.core.lifecycle.assertUsable('setState');
    assertSessionState(state);
    this.#stateAtLease = undefined;
    const changed = await this.core.db.run(
      `UPDATE ${this.core.t.sessions} SET state = ? WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${this.core.now}`,
      [state === null ? null : JSON.stringify(state), ...this.#leaseParams],
    );
    if (changed === 0) throw this.#lockLost();
  }

  complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    return this.#settle(message, effects, null);
  }

  async deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void> {
    await this.#settle(message, options.effects, deadLetterOutcome(options));
  }

  async abandon(message: ReceivedMessage): Promise<void> {
    this.core.lifecycle.assertUsable('abandon');
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
    deadLetter: DeadLetterReason | null,
  ): Promise<void> {
    const { core } = this;
    core.lifecycle.assertUsable('a settlement');
    this.#assertHeldShape(message);
    this.#stateAtLease = undefined;
    const publish = effects?.publish ?? [];
    assertPublishBatchSize(publish, core.options.maxBatchBytes);
    const plans = await core.planPublish(publish);
    assertSettleEffects(effects);
    await core.settleGroup.settle(this.#held, [{ message, plans, effects, deadLetter }]);
  }

  async settleMany(settlements: readonly BatchSettlement[]): Promise<void> {
    const { core } = this;
    core.lifecycle.assertUsable('settleMany');
    this.#stateAtLease = undefined;
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
    await core.settleGroup.settle(this.#held, planned);
  }

  async readParked(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    this.core.lifecycle.assertUsable('readParked');
    await this.#assertLease(this.core.db);
    const rows = await this.core.db.all(
      `SELECT * FROM ${this.core.t.parked} WHERE input = ? AND session_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
      [this.input, this.sessionId, fromSequence, max],
    );
    return rows.map(parkedFromRow);
  }

  async renewLock(): Promise<Date> {
    this.core.lifecycle.assertUsable('renewLock');
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

  release(): Promise<void> {
    this.#stateAtLease = undefined;
    return releaseLease(this.#held);
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
