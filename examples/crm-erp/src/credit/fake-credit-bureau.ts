/** A credit decision from the bureau. */
export interface CreditDecision {
  readonly customerId: string;
  readonly approved: boolean;
  readonly limit: number;
}

export interface CreditJob {
  readonly jobId: string;
  readonly customerId: string;
  readonly amount: number;
}

/**
 * A stand-in for an external credit bureau: it accepts a job at once and answers later (after `delayMs`),
 * the way a real bureau calls back or is polled.
 */
export class FakeCreditBureau {
  readonly #timers = new Set<NodeJS.Timeout>();
  #onDecision: ((job: CreditJob, decision: CreditDecision) => Promise<void>) | null = null;

  constructor(private readonly delayMs = 2_000) {}

  onDecision(listener: (job: CreditJob, decision: CreditDecision) => Promise<void>): void {
    this.#onDecision = listener;
  }

  submit(job: CreditJob): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      const decision = { customerId: job.customerId, approved: job.amount <= 25_000, limit: job.amount };
      void this.#onDecision?.(job, decision);
    }, this.delayMs);
    this.#timers.add(timer);
  }

  /** Drops answers not yet given (the pending handoffs stay visible in the WebApp). */
  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
