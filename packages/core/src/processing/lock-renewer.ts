import type { Clock } from '../clock.js';
import type { SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';

/**
 * Keeps a session lock alive by renewing it at half its remaining time. Each `resetBudget` (a new message or a
 * new idle wait) allows renewals for another `maxDurationMs`; past that the lock is left to lapse.
 */
export class LockRenewer {
  readonly #stop = new AbortController();
  #budgetStart: number;
  #lockedUntil: number;
  #wakeOnReset: (() => void) | null = null;
  #done: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: SessionHandle,
    private readonly clock: Clock,
    private readonly maxDurationMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#budgetStart = clock.now();
    this.#lockedUntil = session.lockedUntil.getTime();
  }

  start(): void {
    if (this.maxDurationMs > 0) this.#done = this.#run();
  }

  resetBudget(): void {
    this.#budgetStart = this.clock.now();
    this.#wakeOnReset?.();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wakeOnReset?.();
    await this.#done;
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      if (this.clock.now() - this.#budgetStart >= this.maxDurationMs) {
        await new Promise<void>((resolve) => {
          this.#wakeOnReset = resolve;
        });
        this.#wakeOnReset = null;
        continue;
      }
      const halfRemaining = Math.floor((this.#lockedUntil - this.clock.now()) / 2);
      await this.clock.sleep(Math.max(1, halfRemaining), signal);
      if (signal.aborted || this.clock.now() - this.#budgetStart >= this.maxDurationMs) continue;
      try {
        this.#lockedUntil = (await this.session.renewLock()).getTime();
      } catch (error) {
        this.onError(error);
        if (
          isTransportError(error, TransportErrorCode.SessionLockLost) ||
          isTransportError(error, TransportErrorCode.Closed)
        )
          return;
        await this.clock.sleep(Math.max(1, Math.floor((this.#lockedUntil - this.clock.now()) / 4)), signal);
      }
    }
  }
}
