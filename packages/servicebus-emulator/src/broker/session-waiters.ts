import type { LockHolder, SessionRecord } from './session-record.js';

interface Waiter {
  readonly holder: LockHolder;
  readonly resolve: (session: SessionRecord | null) => void;
}

/** Receivers waiting for the next session with a message, served first come first served. */
export class SessionWaiters {
  readonly #waiters: Waiter[] = [];

  /** Resolves with the session handed over by `take`, or null after `timeoutMs`. */
  wait(holder: LockHolder, timeoutMs: number): Promise<SessionRecord | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        resolve(null);
      }, timeoutMs).unref();
      const waiter: Waiter = {
        holder,
        resolve: (session) => {
          clearTimeout(timer);
          resolve(session);
        },
      };
      this.#waiters.push(waiter);
    });
  }

  cancel(holder: LockHolder): void {
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      if (this.#waiters[i]!.holder === holder) this.#waiters.splice(i, 1)[0]!.resolve(null);
    }
  }

  take(): Waiter | undefined {
    return this.#waiters.shift();
  }
}
