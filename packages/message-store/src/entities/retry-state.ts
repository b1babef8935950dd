/**
 * A Failed row whose failure the retry policy will retry: the stored status stays `Failed` (the seed's
 * meaning: the session is blocked on it), and this says it is retrying, not awaiting an operator. `null` on
 * every other row, and on a Failed row whose retries are exhausted or that no policy retries.
 */
export interface RetryState {
  /** The attempt that failed, 1-based (the first delivery is attempt 1). */
  readonly attempt: number;
  /** All attempts the policy allows: the first delivery plus `maxRetries`. */
  readonly maxAttempts: number;
  /** When the scheduled retry is due. */
  readonly nextAttemptAt: Date;
}
