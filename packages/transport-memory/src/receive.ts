import { type ReceivedMessage, uuidv7 } from '@nimbus/core';
import { receivedFromEntry, type SessionEntry } from './entries.js';
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
