/** Time source. Production uses the system clock; tests inject a controllable one. */
export interface Clock {
  now(): number;
  /**
   * Optional: a clock that never jumps (wall-clock corrections) and keeps counting while the process is paused
   * (SIGSTOP, a VM stall): the session processor measures lease time on it. Absent: `now()` is used.
   */
  monotonic?(): number;
  /** Resolves after `ms` of this clock's time (a manual clock resolves when advanced past it). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        signal?.removeEventListener('abort', done);
        clearTimeout(timer);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** A clock that only moves when told to. Sleepers wake in due-time order as time is advanced. */
export class ManualClock implements Clock {
  #now: number;
  #sleepers: { due: number; resolve: () => void }[] = [];

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  monotonic(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper = { due: this.#now + ms, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Moves time forward and wakes every sleeper whose due time has come. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#sleepers.filter((s) => s.due <= this.#now).sort((a, b) => a.due - b.due);
    this.#sleepers = this.#sleepers.filter((s) => s.due > this.#now);
    for (const sleeper of due) sleeper.resolve();
  }

  set(time: number | Date): void {
    const target = typeof time === 'number' ? time : time.getTime();
    this.advance(Math.max(0, target - this.#now));
  }
}
