import { TransportError, TransportErrorCode } from '@nimbus/core';

interface Waiter {
  readonly input: string;
  wake(): void;
  fail(error: Error): void;
}

/**
 * In-process wake-ups per input: waiters sleep until a notification for their input (local publish,
 * PostgreSQL NOTIFY), a timeout (the polling fallback) or an abort.
 */
export class Wakeups {
  readonly #waiters = new Set<Waiter>();
  #closed = false;

  wait(input: string, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        finish();
        resolve();
      };
      const waiter: Waiter = {
        input,
        wake: onAbort,
        fail: (error) => {
          finish();
          reject(error);
        },
      };
      const timer = setTimeout(onAbort, Math.max(0, ms));
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  notify(input: string): void {
    for (const waiter of [...this.#waiters]) if (waiter.input === input) waiter.wake();
  }

  notifyAll(): void {
    for (const waiter of [...this.#waiters]) waiter.wake();
  }

  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#waiters]) waiter.fail(closedError());
  }
}

function closedError(): TransportError {
  return new TransportError(TransportErrorCode.Closed, 'The SQL transport was closed');
}
