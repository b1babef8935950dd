import { MAX_DELIVERY_COUNT_REASON, TransportError, TransportErrorCode, uuidv7 } from '@nimbus/core';
import { maxDeliveryDescription } from '@nimbus/core/transport-spi';
import { isLeaseFree, type SessionEntry } from './entries.js';
import type { MemoryCore } from './memory-core.js';

/** Leases the named session, or the first free session with messages in round-robin order; null if none. */
export function tryLease(
  core: MemoryCore,
  input: string,
  sessionId: string | null,
): { entry: SessionEntry; token: string } | null {
  core.promoteDue();
  const now = core.now();
  const ready = core.readySet(input);
  const named = sessionId === null ? undefined : core.existingSession(input, sessionId);
  const candidates = sessionId === null ? ready : named && ready.has(named) ? [named] : [];
  let chosen: SessionEntry | null = null;
  for (const entry of candidates) {
    if (!isLeaseFree(entry, now)) continue;
    deadLetterExhausted(core, entry, null);
    if (entry.line.length === 0) continue;
    chosen = entry;
    break;
  }
  if (!chosen) return null;
  const token = uuidv7(now);
  chosen.leaseToken = token;
  chosen.lockedUntil = now + core.options.lockDurationMs;
  ready.delete(chosen);
  ready.add(chosen);
  core.leased.add(chosen);
  return { entry: chosen, token };
}

export function assertLease(core: MemoryCore, entry: SessionEntry, token: string): void {
  core.lifecycle.assertUsable('a session handle');
  if (entry.leaseToken !== token || entry.lockedUntil <= core.now()) {
    throw new TransportError(
      TransportErrorCode.SessionLockLost,
      `Lock on session '${entry.sessionId}' at '${entry.input}' was lost (expired, released or taken over)`,
    );
  }
}

export function renewLease(core: MemoryCore, entry: SessionEntry, token: string): number {
  assertLease(core, entry, token);
  entry.lockedUntil = core.now() + core.options.lockDurationMs;
  return entry.lockedUntil;
}

/** Ends the lease. Only a live lease hands its messages back uncounted; a lapsed one already counted them. */
export function releaseLease(core: MemoryCore, entry: SessionEntry, token: string): void {
  if (entry.leaseToken !== token) return;
  const lapsed = entry.lockedUntil <= core.now();
  entry.leaseToken = null;
  entry.lockedUntil = 0;
  core.leased.delete(entry);
  // The session goes back to the ready set with its turn used: one accept waiter (or idle holder) takes it.
  if (entry.line.length > 0) core.waiters.notifyWork(entry.input, [entry.sessionId]);
  core.forgetIfEmpty(entry);
  if (lapsed) return;
  for (const item of entry.line) {
    if (item.heldBy !== token) continue;
    item.heldBy = null;
    item.deliveryCount = Math.max(0, item.deliveryCount - 1);
  }
}

/**
 * Dead-letters messages whose last delivery hit the limit under another lease (`token` is the current one, null
 * before leasing), before anyone sees them again.
 */
export function deadLetterExhausted(core: MemoryCore, entry: SessionEntry, token: string | null): void {
  const max = core.options.maxDeliveryCount;
  for (const item of [...entry.line]) {
    if (item.heldBy === token || item.heldBy === null || item.deliveryCount < max) continue;
    core.removeFromLine(entry, item);
    core.addDeadLetter(item, MAX_DELIVERY_COUNT_REASON, maxDeliveryDescription(item.deliveryCount, max));
  }
}
