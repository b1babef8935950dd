import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';
import { EventLoopLag } from './event-loop-lag.js';

/**
 * Lets the event loop run its I/O (HTTP requests, timers) before going on. On SQLite every query of
 * better-sqlite3 is synchronous, so a chain of awaits over it is only microtasks and never lets a request in:
 * background work (bulk jobs, their snapshot) awaits this between its steps.
 */
export function yieldToEventLoop(): Promise<void> {
  return immediate();
}

export interface EventLoopPacerOptions {
  /** Work this long at most before pausing; default 10 ms. */
  readonly sliceMs?: number;
  /** One pause; default 50 ms. */
  readonly pauseMs?: number;
  /** Go on only while the loop answers a timer at most this late; default 25 ms. */
  readonly maxLagMs?: number;
  /** Go on after pausing this long in a row even if the loop stays late (a floor under the job's pace); default 1 000 ms. */
  readonly maxWaitMs?: number;
}

/**
 * Keeps background work to what the event loop can spare. `pace()` yields (setImmediate) while the work has run
 * less than `sliceMs` since its last pause and the loop is on time; otherwise it pauses `pauseMs` at a time until
 * the loop answers a timer within `maxLagMs` again (at most `maxWaitMs`). Measuring the loop, not only the
 * job's own time, is what counts: a bulk resubmit's own work is a small part of what it causes — the endpoint
 * handling each event, the transport leasing its session, the Resolver recording the outcome, all on the same
 * loop on the default stack — so a job that kept to a fixed share of the loop still queued every request behind
 * that work (p95 1.9 s for the events page). Shared by the workers of one job; `close()` stops the lag probe.
 */
export class EventLoopPacer {
  readonly #lag = new EventLoopLag();
  readonly #sliceMs: number;
  readonly #pauseMs: number;
  readonly #maxLagMs: number;
  readonly #maxWaitMs: number;
  #sliceStart = performance.now();

  constructor(options: EventLoopPacerOptions = {}) {
    this.#sliceMs = options.sliceMs ?? 10;
    this.#pauseMs = options.pauseMs ?? 50;
    this.#maxLagMs = options.maxLagMs ?? 25;
    this.#maxWaitMs = options.maxWaitMs ?? 1_000;
  }

  async pace(): Promise<void> {
    const onTime = this.#lag.recentMs() <= this.#maxLagMs;
    if (onTime && performance.now() - this.#sliceStart < this.#sliceMs) return yieldToEventLoop();
    const waitUntil = performance.now() + this.#maxWaitMs;
    do await sleep(this.#pauseMs);
    while (this.#lag.recentMs() > this.#maxLagMs && performance.now() < waitUntil);
    this.#sliceStart = performance.now();
  }

  close(): void {
    this.#lag.stop();
  }
}
