import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';

/**
 * Lets the event loop run its I/O (HTTP requests, timers) before going on. On SQLite every query of
 * better-sqlite3 is synchronous, so a chain of awaits over it is only microtasks and never lets a request in:
 * background work (bulk jobs, their snapshot) awaits this between its steps.
 */
export function yieldToEventLoop(): Promise<void> {
  return immediate();
}

/**
 * Keeps background work to a share of the event loop: `pace()` yields (setImmediate) while the work has run
 * less than `sliceMs` since its last pause, and pauses for `pauseMs` once it has (so requests, the Resolver and
 * the endpoints of the same process get the rest). Shared by the workers of one job.
 */
export class EventLoopPacer {
  #sliceStart = performance.now();

  constructor(
    private readonly sliceMs = 25,
    private readonly pauseMs = 50,
  ) {}

  async pace(): Promise<void> {
    if (performance.now() - this.#sliceStart < this.sliceMs) return yieldToEventLoop();
    await sleep(this.pauseMs);
    this.#sliceStart = performance.now();
  }
}
