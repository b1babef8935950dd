import { type ReceivedMessage, uuidv7 } from '@nimbus/core';
import { isLeaseFree, receivedFromEntry, type SessionEntry } from './entries.js';
import type { MemoryCore } from './memory-core.js';
import { assertLease, deadLetterExhausted } from './session-lease.js';

/** Delivers up to `max` messages in sequence order that this lease has not received yet. */
export function tryReceive(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  max: number,
): ReceivedMessage[] {
  assertLease(core, entry, token);
  core.promoteDue();
  deadLetterExhausted(core, entry, token);
  const received: ReceivedMessage[] = [];
  for (const item of entry.line) {
    if (received.length >= max) break;
    if (item.heldBy === token) continue;
    item.heldBy = token;
    item.deliveryCount += 1;
    item.lockToken = uuidv7(core.now());
    received.push(receivedFromEntry(item));
  }
  return received;
}

/** Whether another session of the same input has messages and no live lease: it waits for a consumer. */
export function anotherSessionWaits(core: MemoryCore, entry: SessionEntry): boolean {
  const now = core.now();
  for (const other of core.readySet(entry.input)) {
    if (other !== entry && other.line.length > 0 && isLeaseFree(other, now)) return true;
  }
  return false;
}
