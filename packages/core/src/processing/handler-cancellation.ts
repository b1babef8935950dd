import { setMaxListeners } from 'node:events';
import { HandlerCancelledError, runWithHandlerSignal } from '../engine/handler-context.js';

/**
 * The signals handlers see: one per handled message (or batch), aborted by whichever comes first of the
 * processor's shutdown (past its drain timeout), the loss of the session's lock, or the handler timeout.
 */
export class HandlerCancellation {
  readonly #shutdown = new AbortController();

  constructor(private readonly handlerTimeoutMs: number) {
    setMaxListeners(0, this.#shutdown.signal);
  }

  /** Aborts every handler running now (and any started later in this run). */
  shutdown(message: string): void {
    this.#shutdown.abort(new HandlerCancelledError('shutdown', message));
  }

  /** A session's own controller: aborted when its lock is lost. */
  forSession(): AbortController {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    return controller;
  }

  /** Runs one handler call with its signal in the handler context. */
  async run<T>(session: AbortSignal, work: () => Promise<T>, leaseCheck?: () => void): Promise<T> {
    const signals = [this.#shutdown.signal, session];
    let timer: NodeJS.Timeout | undefined;
    if (this.handlerTimeoutMs > 0) {
      const timeout = new AbortController();
      timer = setTimeout(
        () =>
          timeout.abort(
            new HandlerCancelledError('timeout', `the handler took longer than ${this.handlerTimeoutMs} ms`),
          ),
        this.handlerTimeoutMs,
      );
      timer.unref();
      signals.push(timeout.signal);
    }
    try {
      return await runWithHandlerSignal(AbortSignal.any(signals), work, leaseCheck);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Resolves true when `work` settles within `ms`, false otherwise (real time: shutdown is wall-clock bound). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
