import { causeChain } from '../errors/cause-chain.js';

/**
 * The longest `retryAfterMs` hint on the error or any of its causes, or null. A client library sets it
 * from e.g. an HTTP `Retry-After` header so that the scheduled retry waits at least that long.
 */
export function retryAfterHint(error: unknown): number | null {
  let longest: number | null = null;
  for (const link of causeChain(error)) {
    if (typeof link !== 'object' || link === null) continue;
    const hint = (link as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof hint === 'number' && Number.isFinite(hint) && hint >= 0) {
      longest = longest === null ? hint : Math.max(longest, hint);
    }
  }
  return longest;
}
