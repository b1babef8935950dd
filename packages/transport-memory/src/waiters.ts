import type { Clock } from '@nimbus/core';

interface Waiter {
  wake(): void;
  fail(error: Error): void;
}

/**
 * Parks callers until something changes (`notifyAll`) or a time on the injected clock passes. Using the clock's
 * own `sleep` makes waits work with a manual clock (woken by `advance`) and with the system clock (timers).
 */
export class Waiters {
  readonly #pending = new Set<Waiter>();

  constructor(private readonly clock: Clock) {}

  /** Resolves on the next notification, after `ms` of clock time, or when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = new AbortController();
      const onAbort = () => timer.abort();
      const waiter: Waiter = {
        wake: () => timer.abort(),
        fail: (error) => {
          cleanup();
          timer.abort();
          reject(error);
        },
      };
      const cleanup = () => {
        this.#pending.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#pending.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.clock.sleep(Math.max(0, ms), timer.signal).then(() => {
        cleanup();
        resolve();
      }, reject);
    });
  }

  notifyAll(): void {
    for (const waiter of [...this.#pending]) waiter.wake();
  }

  failAll(error: Error): void {
    for (const waiter of [...this.#pending]) waiter.fail(error);
  }
}
