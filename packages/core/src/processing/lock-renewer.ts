import type { Clock } from '../clock.js';
import { loopLifecycle } from '../lifecycle/lifecycle-parts.js';
import { type LifecycleRunner, RunnerLifecycle } from '../lifecycle/service-lifecycle.js';
import type { SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';

/**
 * Keeps a session lock alive on its own timer, whatever the handler does: it renews every `intervalMs` (at the
 * latest at half the remaining time). Each `resetBudget` (a new message or a new idle wait) allows renewals for
 * another `maxDurationMs`; past that the lock is left to lapse. `onRenewed` hears every new expiry. On the one
 * lifecycle (a `loopLifecycle`): one per session hold, stopped when the session is released.
 */
export class LockRenewer extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  #budgetStart: number;
  #lockedUntil: number;
  #wakeOnReset: (() => void) | null = null;

  constructor(
    private readonly session: SessionHandle,
    private readonly clock: Clock,
    private readonly maxDurationMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs: number = Number.POSITIVE_INFINITY,
    private readonly onRenewed: (lockedUntil: Date) => void = () => undefined,
  ) {
    super();
    this.#budgetStart = clock.now();
    this.#lockedUntil = session.lockedUntil.getTime();
    this.lifecycle = loopLifecycle(({ stopping }) => this.#run(stopping), {
      name: `the lock renewer of session '${session.sessionId}'`,
    });
  }

  resetBudget(): void {
    this.#budgetStart = this.clock.now();
    this.#wakeOnReset?.();
  }

  async #run(signal: AbortSignal): Promise<void> {
    if (this.maxDurationMs <= 0) return;
    // A renewer waiting for a budget reset wakes when it is stopped.
    signal.addEventListener('abort', () => this.#wakeOnReset?.(), { once: true });
    while (!signal.aborted) {
      if (this.clock.now() - this.#budgetStart >= this.maxDurationMs) {
        await new Promise<void>((resolve) => {
          this.#wakeOnReset = resolve;
        });
        this.#wakeOnReset = null;
        continue;
      }
      const halfRemaining = Math.floor((this.#lockedUntil - this.clock.now()) / 2);
      await this.clock.sleep(Math.max(1, Math.min(this.intervalMs, halfRemaining)), signal);
      if (signal.aborted || this.clock.now() - this.#budgetStart >= this.maxDurationMs) continue;
      try {
        const renewed = await this.session.renewLock();
        this.#lockedUntil = renewed.getTime();
        this.onRenewed(renewed);
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
