import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { assertTransportMessage } from './message-validation.js';
import type { DeadLetterReason, PublishRequest, SessionState, SettleEffects } from './transport.js';
import { TransportError, TransportErrorCode } from './transport-error.js';
import type { TransportMessage } from './transport-message.js';

export { assertTransportMessage };

// Input checks every transport applies the same way, so the conformance suite sees one set of errors.

/** The dead-letter reason a transport uses when a message reached its maximum delivery count. */
export const MAX_DELIVERY_COUNT_REASON = 'MaxDeliveryCountExceeded';

export function maxDeliveryDescription(count: number, max: number): string {
  return `Delivered ${count} times without being settled; the maximum delivery count is ${max}`;
}

/** Bytes a message counts against a publish budget: UTF-8 body plus header names and values. */
export function transportMessageSize(message: TransportMessage): number {
  let size = Buffer.byteLength(message.body, 'utf8');
  for (const [name, value] of Object.entries(message.headers)) {
    size += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return size;
}

export function assertPublishBatchSize(requests: readonly PublishRequest[], maxBatchBytes: number): void {
  let bytes = 0;
  for (const request of requests) {
    for (const message of request.messages) {
      // Shape first: a header that is not a string must fail naming the header, not inside the size count.
      assertTransportMessage(message);
      bytes += transportMessageSize(message);
    }
  }
  if (bytes > maxBatchBytes) {
    throw new TransportError(
      TransportErrorCode.MessageTooLarge,
      `Publish batch of ${bytes} bytes exceeds maxBatchBytes (${maxBatchBytes}); page the batch`,
    );
  }
}

export function assertPublishSource(source: unknown): asserts source is string {
  if (typeof source !== 'string' || source.length === 0) {
    throw invalid('PublishRequest.source must be a non-empty string');
  }
}

export function assertSessionState(state: SessionState | null): void {
  if (state !== null && (typeof state !== 'object' || Array.isArray(state))) {
    throw invalid('Session state must be a JSON object or null');
  }
}

export function assertDeadLetterReason(reason: unknown): asserts reason is string {
  if (typeof reason !== 'string' || reason.length === 0) {
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'deadLetter: reason must be a non-empty string');
  }
}

/** The `deadLetter` part of a settlement for a `SessionHandle.deadLetter` call, after checking its reason. */
export function deadLetterOutcome(options: DeadLetterReason): DeadLetterReason {
  assertDeadLetterReason(options.reason);
  return { reason: options.reason, description: options.description };
}

/** Checks everything in `effects` except `publish` (routing checks that), before a transport changes anything. */
export function assertSettleEffects(effects: SettleEffects | undefined): void {
  if (!effects) return;
  for (const parked of effects.park ?? []) {
    assertSequence('park', parked.sequence);
    assertTransportMessage(parked.message);
  }
  for (const sequence of effects.unpark ?? []) assertSequence('unpark', sequence);
  if (effects.state !== undefined) assertSessionState(effects.state);
  const elsewhere = new Set([...(effects.park ?? []).map((p) => p.sequence), ...(effects.unpark ?? [])]);
  const seen = new Set<number>();
  for (const entry of effects.deadLetterParked ?? []) {
    assertSequence('deadLetterParked', entry?.sequence);
    if (typeof entry.reason !== 'string' || entry.reason.length === 0) {
      throw invalid(`deadLetterParked: sequence ${entry.sequence} needs a non-empty reason`);
    }
    if (entry.description !== null && typeof entry.description !== 'string') {
      throw invalid(`deadLetterParked: sequence ${entry.sequence} needs a string or null description`);
    }
    if (seen.has(entry.sequence) || elsewhere.has(entry.sequence)) {
      throw invalid(
        `deadLetterParked: sequence ${entry.sequence} appears twice in one settlement (deadLetterParked, park or unpark)`,
      );
    }
    seen.add(entry.sequence);
  }
}

/** Fails a `settleMany` call that settles the same message twice; otherwise records `sequence` in `settled`. */
export function assertSettledOnce(settled: Set<number>, sequence: number): void {
  if (settled.has(sequence)) {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      `settleMany: message ${sequence} is settled twice in one call`,
    );
  }
  settled.add(sequence);
}

/** The error for a `deadLetterParked` sequence that the session has not parked. */
export function parkedMessageNotFound(input: string, sessionId: string, sequence: number): TransportError {
  return new TransportError(
    TransportErrorCode.MessageNotFound,
    `deadLetterParked: session '${sessionId}' at '${input}' has no parked message at sequence ${sequence}`,
  );
}

function assertSequence(field: string, sequence: unknown): void {
  if (!Number.isSafeInteger(sequence) || (sequence as number) < 0) {
    throw invalid(`${field}: sequence must be a non-negative integer, got ${String(sequence)}`);
  }
}

function invalid(message: string): TransportError {
  return new TransportError(TransportErrorCode.InvalidArgument, message);
}
