/** Redelivery schedule for transient store failures (reference: 10 attempts, 5 s doubling, capped at 300 s). */
export const MAX_THROTTLE_RETRIES = 10;
export const BASE_DELAY_SECONDS = 5;
export const MAX_DELAY_SECONDS = 300;

/** `min(5·2^n, 300)` seconds, or the provider's retry-after when that is longer; in ms. */
export function throttleDelayMs(attempt: number, retryAfterMs: number | null): number {
  const calculated = Math.min(BASE_DELAY_SECONDS * 2 ** Math.max(0, attempt), MAX_DELAY_SECONDS) * 1000;
  return retryAfterMs !== null && retryAfterMs > calculated ? retryAfterMs : calculated;
}
