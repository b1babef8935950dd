/** The part of `EndpointCircuitBreaker` the engine uses to report business handler outcomes. */
export interface HandlerOutcomeRecorder {
  recordSuccess(): void;
  recordFailure(error: unknown): unknown;
  /** Gives back a probe slot that was taken for a message whose handler did not run. */
  releaseRequest(): void;
}

/**
 * Outcomes of one settlement. A settlement that never ran a handler (parked, control message, duplicate)
 * gives its half-open probe slot back, so the breaker does not wait for an outcome that never comes.
 */
export class SettlementOutcomes {
  #reported = false;

  constructor(private readonly recorder: HandlerOutcomeRecorder | null) {}

  success(): void {
    this.#reported = true;
    this.recorder?.recordSuccess();
  }

  failure(error: unknown): void {
    this.#reported = true;
    this.recorder?.recordFailure(error);
  }

  finish(): void {
    if (!this.#reported) this.recorder?.releaseRequest();
  }
}
