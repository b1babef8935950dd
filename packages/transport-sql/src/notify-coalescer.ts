/**
 * Coalesces PostgreSQL NOTIFYs per input. NOTIFY serialises committing transactions on a global queue lock,
 * so a busy publisher must not send one per transaction. The first change to an input in a window notifies
 * inside its transaction (leading edge); later ones only mark the input, and one NOTIFY goes out when the
 * window closes (trailing edge, after those transactions committed). A listener therefore hears about every
 * change within `windowMs`.
 */
export class NotifyCoalescer {
  readonly #lastSent = new Map<string, number>();
  readonly #pending = new Set<string>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    private readonly windowMs: number,
    private readonly sendLater: (inputs: string[]) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Which of `inputs` the current transaction should notify itself; the others are sent at window end. */
  take(inputs: Iterable<string>): string[] {
    const now = Date.now();
    const immediate: string[] = [];
    for (const input of inputs) {
      const last = this.#lastSent.get(input);
      if (last === undefined || now - last >= this.windowMs) {
        this.#lastSent.set(input, now);
        immediate.push(input);
      } else {
        this.#pending.add(input);
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
    const inputs = [...this.#pending];
    this.#pending.clear();
    const now = Date.now();
    for (const input of inputs) this.#lastSent.set(input, now);
    this.sendLater(inputs).catch(this.onError);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
