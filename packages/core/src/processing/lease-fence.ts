import type { Clock } from '../clock.js';
import { HandlerCancelledError } from '../engine/handler-context.js';
import type { SessionHandle } from '../transport/transport.js';
import { TransportError, TransportErrorCode } from '../transport/transport-error.js';

/**
 * Whether this process can still prove it holds one session's lease. The expiry is kept on the clock's monotonic
 * time (`performance.now()` for the system clock), so a process that was paused (SIGSTOP, a VM stall, a long GC)
 * sees on waking that the time passed, whatever the wall clock did. `check()` runs before every handler start:
 * with less than `marginMs` of lease left, or after a failed renewal, the lease counts as lost. Losing it aborts
 * the session's controller (the handlers' `signal`, reason `lockLost`) once; a watchdog does the same when no
 * renewal came in time, so a handler that is running hears of it too.
 */
export class LeaseFence {
  #expiresAt: number;
  #lost: string | null = null;
  readonly #stop = new AbortController();
  #watching: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: Pick<SessionHandle, 'input' | 'sessionId' | 'lockedUntil'>,
    private readonly clock: Clock,
    private readonly marginMs: number,
    private readonly controller: AbortController,
    private readonly onLost: (why: string) => void = () => undefined,
  ) {
    this.#expiresAt = this.#toMonotonic(session.lockedUntil);
  }

  /** Lease time left on the monotonic clock (negative once lapsed). */
  get remainingMs(): number {
    return this.#expiresAt - this.#monotonic();
  }

  get lost(): boolean {
    return this.#lost !== null;
  }

  /** Starts the watchdog that declares the lease lost when no renewal extended it before the margin. */
  watch(): void {
    this.#watching = this.#watch();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#watching;
  }

  /** A renewal succeeded: the lease now lasts until `lockedUntil` (ignored once lost: the session is ending). */
  renewed(lockedUntil: Date): void {
    if (this.#lost === null) this.#expiresAt = this.#toMonotonic(lockedUntil);
  }

  /** Declares the lease lost (a renewal was refused): aborts the handlers' signal. */
  lose(why: string): void {
    if (this.#lost !== null) return;
    this.#lost = why;
    this.controller.abort(new HandlerCancelledError('lockLost', why));
    this.onLost(why);
  }

  /** Throws `SessionLockLost` unless the lease is held for at least the safety margin more. */
  check(): void {
    if (this.#lost === null) {
      const left = Math.floor(this.remainingMs);
      if (left <= this.marginMs) this.lose(this.#lapsed(left));
    }
    if (this.#lost !== null) {
      throw new TransportError(
        TransportErrorCode.SessionLockLost,
        `No handler is started for session '${this.session.sessionId}' at '${this.session.input}': ${this.#lost}`,
      );
    }
  }

  async #watch(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted && this.#lost === null) {
      const wait = this.remainingMs - this.marginMs;
      if (wait <= 0) {
        this.lose(this.#lapsed(Math.floor(this.remainingMs)));
        return;
      }
      await this.clock.sleep(Math.ceil(wait), signal);
    }
  }

  #lapsed(left: number): string {
    return left <= 0
      ? `its lease lapsed ${-left} ms ago on this process's monotonic clock (paused or starved past the lease?)`
      : `only ${left} ms of its lease are left, within the ${this.marginMs} ms safety margin, and no renewal came`;
  }

  #monotonic(): number {
    return this.clock.monotonic ? this.clock.monotonic() : this.clock.now();
  }

  /** A wall-clock expiry as monotonic time: what is left of it now, from now on the monotonic clock. */
  #toMonotonic(lockedUntil: Date): number {
    return this.#monotonic() + (lockedUntil.getTime() - this.clock.now());
  }
}
