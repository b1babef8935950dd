import {
  type BatchSettlement,
  MAX_DELIVERY_COUNT_REASON,
  type ReceivedMessage,
  type SessionState,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import {
  assertDeadLetterReason,
  assertSessionState,
  assertSettledOnce,
  assertSettleEffects,
  maxDeliveryDescription,
  parkedMessageNotFound,
} from '@nimbus/core/transport-spi';
import type { LineMessage, SessionEntry } from './entries.js';
import type { MemoryCore } from './memory-core.js';
import { applyPublish, assertBatchSize, planPublish } from './publish.js';
import { assertLease } from './session-lease.js';

/** The line message `message` names, if this lease holds its current delivery. */
export function findHeld(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  message: ReceivedMessage,
): LineMessage {
  assertLease(core, entry, token);
  const item = entry.line.find((m) => m.sequence === message.sequence);
  if (!item || item.heldBy !== token || item.lockToken !== message.lockToken) {
    throw new TransportError(
      TransportErrorCode.MessageLockLost,
      `Message ${message.sequence} of session '${entry.sessionId}' is not held by this lease (already settled or redelivered)`,
    );
  }
  return item;
}

/** Validates effects, then removes the message and applies everything with no await in between. */
export function settle(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  message: ReceivedMessage,
  effects: SettleEffects | undefined,
  deadLetter: { reason: string; description: string | null } | null,
): void {
  const item = findHeld(core, entry, token, message);
  // The same budget as a publish call: a settlement the transport could not send as one publish is refused.
  assertBatchSize(core, effects?.publish ?? []);
  const plan = planPublish(core, effects?.publish ?? []);
  assertSettleEffects(effects);
  const parkedToDeadLetter = (effects?.deadLetterParked ?? []).map((request) => {
    const parked = entry.parked.get(request.sequence);
    if (!parked) throw parkedMessageNotFound(entry.input, entry.sessionId, request.sequence);
    return { parked, request };
  });
  core.removeFromLine(entry, item);
  if (deadLetter) core.addDeadLetter(item, deadLetter.reason, deadLetter.description);
  for (const { parked, request } of parkedToDeadLetter) {
    entry.parked.delete(parked.sequence);
    core.addDeadLetter(
      { message: { ...parked.message, sessionId: entry.sessionId }, input: entry.input, deliveryCount: 0 },
      request.reason,
      request.description,
    );
  }
  applyPublish(core, plan);
  const parkedAt = new Date(core.now());
  for (const { sequence, message: parkedMessage } of effects?.park ?? []) {
    if (!entry.parked.has(sequence))
      entry.parked.set(sequence, { sequence, message: parkedMessage, parkedAt });
  }
  for (const sequence of effects?.unpark ?? []) entry.parked.delete(sequence);
  if (effects?.state !== undefined)
    entry.state = effects.state === null ? null : structuredClone(effects.state);
}

/** Checks every settlement against the state the ones before it leave, then applies them all in order. */
export function settleMany(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  settlements: readonly BatchSettlement[],
): void {
  if (!Array.isArray(settlements)) {
    throw new TransportError(TransportErrorCode.InvalidArgument, 'settleMany: settlements must be an array');
  }
  const parked = new Set(entry.parked.keys());
  const settled = new Set<number>();
  for (const { message, effects, deadLetter } of settlements) {
    findHeld(core, entry, token, message);
    assertSettledOnce(settled, message.sequence);
    if (deadLetter) assertDeadLetterReason(deadLetter.reason);
    assertBatchSize(core, effects?.publish ?? []);
    planPublish(core, effects?.publish ?? []);
    assertSettleEffects(effects);
    for (const { sequence } of effects?.deadLetterParked ?? []) {
      if (!parked.delete(sequence)) throw parkedMessageNotFound(entry.input, entry.sessionId, sequence);
    }
    for (const { sequence } of effects?.park ?? []) parked.add(sequence);
    for (const sequence of effects?.unpark ?? []) parked.delete(sequence);
  }
  for (const { message, effects, deadLetter } of settlements)
    settle(core, entry, token, message, effects, deadLetter ?? null);
}

/** Hands the message back to the line (dead-lettered instead once it reached the delivery limit). */
export function abandon(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  message: ReceivedMessage,
): void {
  const item = findHeld(core, entry, token, message);
  item.heldBy = null;
  const max = core.options.maxDeliveryCount;
  if (item.deliveryCount >= max) {
    core.removeFromLine(entry, item);
    core.addDeadLetter(item, MAX_DELIVERY_COUNT_REASON, maxDeliveryDescription(item.deliveryCount, max));
  }
  core.waiters.notifyWork(entry.input, [entry.sessionId]);
}

export function setState(
  core: MemoryCore,
  entry: SessionEntry,
  token: string,
  state: SessionState | null,
): void {
  assertLease(core, entry, token);
  assertSessionState(state);
  entry.state = state === null ? null : structuredClone(state);
}
