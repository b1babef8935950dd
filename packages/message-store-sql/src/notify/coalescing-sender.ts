import type { Logger } from '@nimbus/core';
import type { StateChange } from '@nimbus/message-store';
import { changedId } from '@nimbus/message-store/provider';
import { encodeChanges, PendingChanges } from './change-payloads.js';

export interface CoalescingSenderOptions {
  /** Sends the encoded payloads; throws when the database is unreachable. */
  readonly send: (payloads: readonly string[]) => Promise<void>;
  readonly logger: Logger;
  /** Changes within this window go out as one notification. */
  readonly delayMs: number;
  /** Wait before trying again after a failed send. */
  readonly retryMs: number;
}

/**
 * Collects changes for a short window and sends them together, so a busy store (one notification per
 * projected message) costs one NOTIFY or insert per window. A failed send keeps its changes for the next
 * try: a database outage delays live updates, it does not drop them.
 */
export class CoalescingSender {
  readonly #pending = new PendingChanges();
  #timer: NodeJS.Timeout | null = null;
  #sending: Promise<void> | null = null;
  #failing = false;
  #closed = false;

  constructor(private readonly options: CoalescingSenderOptions) {}

  add(change: StateChange): void {
    if (this.#closed || (change.kind !== 'resync' && changedId(change) === '')) return;
    this.#pending.add(change);
    this.#schedule(this.options.delayMs);
  }

  /** Sends everything pending now (waits for a send under way). */
  async flush(): Promise<void> {
    this.#clearTimer();
    await this.#sending;
    if (this.#pending.size > 0) await this.#sendPending();
  }

  /** Sends what is pending once more, then refuses new changes. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush().catch(() => undefined);
    this.#clearTimer();
  }

  #schedule(delayMs: number): void {
    if (this.#timer || this.#sending) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#sendPending();
    }, delayMs);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #sendPending(): Promise<void> {
    const changes = this.#pending.drain();
    if (changes.length === 0) return Promise.resolve();
    const sending = this.options
      .send(encodeChanges(changes))
      .then(() => {
        if (this.#failing) this.options.logger.info({}, 'State-change notifications are being sent again');
        this.#failing = false;
      })
      .catch((error: unknown) => {
        for (const change of changes) this.#pending.add(change);
        if (!this.#failing)
          this.options.logger.warn(
            { error, pending: this.#pending.size },
            'Could not send state-change notifications; keeping them and retrying',
          );
        this.#failing = true;
      })
      .finally(() => {
        this.#sending = null;
        if (this.#pending.size > 0 && !this.#closed)
          this.#schedule(this.#failing ? this.options.retryMs : this.options.delayMs);
      });
    this.#sending = sending;
    return sending;
  }
}
