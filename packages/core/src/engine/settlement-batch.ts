import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { deadLetterOutcome } from '../transport/settle-validation.js';
import type {
  BatchSettlement,
  DeadLetterOptions,
  ReceivedMessage,
  SessionHandle,
  SettleEffects,
} from '../transport/transport.js';
import { isLeaseRefusal } from './settlement-refusal.js';
import type { Settlements } from './settlements.js';

/**
 * The settlements of one received batch: `complete` and `deadLetter` are planned and committed together by
 * `commit()` through the transport's `settleMany`. Anything that must see them applied first (the engine's reads
 * of the session, abandoning) commits before it runs, so the engine's per-message decisions are the same as with
 * one settlement per message. Work registered with `afterCommit` runs only once the settlements before it are
 * committed.
 */
export class SettlementBatch implements Settlements {
  readonly #session: SessionHandle & Required<Pick<SessionHandle, 'settleMany'>>;
  readonly #onFailure: () => void;
  readonly #onRefused: (count: number, error: unknown) => void;
  #pending: BatchSettlement[] = [];
  #afterCommit: (() => Promise<void>)[] = [];
  #abandoned = 0;

  /**
   * `onFailure` runs when a commit fails: nothing pending was applied, so cached state is stale. `onRefused` hears
   * of a commit the transport refused because the lease is no longer held (`isLeaseRefusal`).
   */
  constructor(
    session: SessionHandle,
    onFailure: () => void,
    onRefused: (count: number, error: unknown) => void = () => undefined,
  ) {
    if (typeof session.settleMany !== 'function')
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'SettlementBatch needs a session handle with settleMany',
      );
    this.#session = session as SessionHandle & Required<Pick<SessionHandle, 'settleMany'>>;
    this.#onFailure = onFailure;
    this.#onRefused = onRefused;
  }

  /** Messages abandoned through this batch (delivered again: nothing after them may run in this batch). */
  get abandoned(): number {
    return this.#abandoned;
  }

  /** Settlements collected and not committed yet. */
  get pending(): number {
    return this.#pending.length;
  }

  async complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    this.#pending.push(effects ? { message, effects } : { message });
  }

  async deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void> {
    const { effects } = options;
    this.#pending.push({ message, deadLetter: deadLetterOutcome(options), ...(effects ? { effects } : {}) });
  }

  /** Runs `work` after the settlements collected so far are committed (right away when none are pending). */
  async afterCommit(work: () => Promise<void>): Promise<void> {
    if (this.#pending.length === 0) await work();
    else this.#afterCommit.push(work);
  }

  /** Commits everything collected in one `settleMany` call, then runs the work waiting for it. */
  async commit(): Promise<void> {
    if (this.#pending.length === 0) return;
    const settlements = this.#pending;
    const waiting = this.#afterCommit;
    this.#pending = [];
    this.#afterCommit = [];
    try {
      await this.#session.settleMany(settlements);
    } catch (error) {
      this.#onFailure();
      if (isLeaseRefusal(error)) this.#onRefused(settlements.length, error);
      throw error;
    }
    for (const work of waiting) await work();
  }

  async abandon(message: ReceivedMessage): Promise<void> {
    await this.commit();
    this.#abandoned += 1;
    await this.#session.abandon(message);
  }

  /** A refused settlement is the whole batch's: `handleMessages` settles its messages one by one instead. */
  async refused(_received: ReceivedMessage, error: unknown): Promise<void> {
    throw error;
  }
}
