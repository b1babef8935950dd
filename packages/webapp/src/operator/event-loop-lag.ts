/** How often the probe asks for a timer. */
const PROBE_EVERY_MS = 10;
/** How many of the last probes `recentMs` looks at. */
const WINDOW = 4;

/**
 * How late the event loop runs a timer now: a probe timer every 10 ms, each firing's lateness kept for the last
 * few. `recentMs()` is the largest of them, or how late the pending probe already is, whichever is more. The
 * timer is unref'd: it never keeps the process alive.
 */
export class EventLoopLag {
  readonly #recent: number[] = [];
  #due = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor() {
    this.#arm();
  }

  recentMs(): number {
    const overdue = this.#timer === null ? 0 : Math.max(0, performance.now() - this.#due);
    return Math.max(overdue, ...this.#recent);
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(): void {
    this.#due = performance.now() + PROBE_EVERY_MS;
    this.#timer = setTimeout(() => {
      this.#recent.push(Math.max(0, performance.now() - this.#due));
      if (this.#recent.length > WINDOW) this.#recent.shift();
      this.#arm();
    }, PROBE_EVERY_MS);
    this.#timer.unref();
  }
}
