import { workByInput, workPayloads } from './wakeups.js';

/**
 * Coalesces PostgreSQL NOTIFYs per input. NOTIFY serialises committing transactions on a global queue lock,
 * so a busy publisher must not send one per transaction. The first change to an input in a window notifies
 * inside its transaction (leading edge); later ones only mark their sessions, and one NOTIFY per input goes out
 * when the window closes (trailing edge, after those transactions committed). A listener therefore hears about
 * every session with new work within `windowMs`, and wakes only the waiter that work is for.
 */
export class NotifyCoalescer {
  readonly #lastSent = new Map<string, number>();
  readonly #pending = new Map<string, Set<string>>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    private readonly origin: string,
    private readonly windowMs: number,
    private readonly sendLater: (payloads: string[]) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The payloads the current transaction should notify itself for these work keys; the rest go at window end. */
  take(workKeys: Iterable<string>): string[] {
    const now = Date.now();
    const immediate: string[] = [];
    for (const [input, sessionIds] of workByInput(workKeys)) {
      const last = this.#lastSent.get(input);
      if (last === undefined || now - last >= this.windowMs) {
        this.#lastSent.set(input, now);
        immediate.push(...workPayloads(this.origin, input, sessionIds));
      } else {
        let pending = this.#pending.get(input);
        if (!pending) {
          pending = new Set<string>();
          this.#pending.set(input, pending);
        }
        for (const sessionId of sessionIds) pending.add(sessionId);
      }
    }
    if (this.#pending.size > 0 && this.#timer === null && !this.#closed) {
      this.#timer = setTimeout(() => this.#flush(), this.windowMs);
      this.#timer.unref();
    }
    return immediate;
  }

  #flush(): void {
    this.#timer = null;
    if (this.#closed || this.#pending.size === 0) return;
    const payloads: string[] = [];
    const now = Date.now();
    for (const [input, sessionIds] of this.#pending) {
      this.#lastSent.set(input, now);
      payloads.push(...workPayloads(this.origin, input, sessionIds));
    }
    this.#pending.clear();
    this.sendLater(payloads).catch(this.onError);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
