import { createEnvelope, type MessageEnvelope } from '../envelope/envelope.js';
import { Header } from '../envelope/headers.js';
import { EMPTY_CONTENT } from '../envelope/message-content.js';
import { MessageType } from '../envelope/message-type.js';
import { decodeContent, encodeEnvelope } from '../envelope/wire.js';
import { fullErrorText } from '../errors/cause-chain.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import type { MessageRejectedError } from '../errors/handling-errors.js';
import { isNimBusError, isRetryableError, type NimBusError } from '../errors/nimbus-error.js';
import { uuidv7 } from '../ids.js';
import type { LifecycleContext, LifecycleEvent } from '../pipeline/lifecycle.js';
import { Addresses } from '../platform/reserved.js';
import { activeTraceFields } from '../telemetry/trace-context.js';
import type { ReceivedMessage, SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';
import type { TransportMessage } from '../transport/transport-message.js';
import { permanentReason } from './invoke-handler.js';
import type { Verdict } from './plan.js';
import type { EngineDeps } from './step.js';

// The engine's small pieces: verdicts from errors, notices for the Resolver and observers, and settlement rules.

export const GENERIC_DEAD_LETTER_REASON = 'Failed to handle message.';
/** The dead-letter reason when the transport refused a settlement's effects (e.g. a response too large). */
export const SETTLEMENT_REFUSED_REASON = 'SettlementRefused';

/** Aborts a whole settlement: nothing is applied and the triggering message is delivered again. */
export class TransientAbort extends Error {
  constructor(readonly error: unknown) {
    super('transient failure during processing', { cause: error });
  }
}

export interface Work {
  readonly message: MessageEnvelope;
  readonly transportMessage: TransportMessage;
  readonly isReplay: boolean;
  readonly deliveryCount: number;
  readonly enqueuedAt: Date | null;
}

export type Notice = { context: LifecycleContext; events: LifecycleEvent[] };

/** By code, not `instanceof`: a handler's copy of @nimbus/core may not be the engine's (issue #30). */
function isRefusedControlMessage(error: unknown): error is NimBusError {
  return (
    isNimBusError(error, NimBusErrorCode.Unauthorized) ||
    isNimBusError(error, NimBusErrorCode.UnsupportedMessageType)
  );
}

export function failureVerdict(error: unknown): Verdict {
  if (isRetryableError(error)) return { kind: 'transient', error };
  if (isNimBusError(error, NimBusErrorCode.PermanentFailure)) {
    return { kind: 'deadLetter', reason: permanentReason(error), error: error.cause ?? error };
  }
  if (isNimBusError(error, NimBusErrorCode.MessageRejected)) {
    return { kind: 'deadLetter', reason: (error as MessageRejectedError).reason ?? error.message, error };
  }
  if (isRefusedControlMessage(error)) {
    return { kind: 'deadLetter', reason: error.message, error };
  }
  return { kind: 'deadLetter', reason: GENERIC_DEAD_LETTER_REASON, error };
}

const EVENT_HANDLING_TYPES: ReadonlySet<string> = new Set([
  MessageType.EventRequest,
  MessageType.UnsupportedResponse,
  MessageType.RetryRequest,
  MessageType.ResubmissionRequest,
]);

/** An event whose handling was dead-lettered (not a refused or unauthorised control message). */
export function awaitsOperatorAfterDeadLetter(message: MessageEnvelope, error: unknown): boolean {
  if (!message.eventId || !EVENT_HANDLING_TYPES.has(message.messageType)) return false;
  return !isRefusedControlMessage(error);
}

/** A settlement the transport refuses for good: retrying the same effects can never succeed. */
export function isUnsettleable(error: unknown): boolean {
  return (
    isTransportError(error, TransportErrorCode.MessageTooLarge) ||
    isTransportError(error, TransportErrorCode.InvalidArgument)
  );
}

export function describe(verdict: Verdict & { kind: 'deadLetter' }): string {
  return verdict.error === undefined || verdict.error === null
    ? verdict.reason
    : fullErrorText(verdict.error);
}

/** Observers see the real outcome: a failed handler is reported as failed, never as completed. */
export function lifecycleEvents(verdict: Verdict): LifecycleEvent[] {
  switch (verdict.kind) {
    case 'completed':
      return verdict.duplicate
        ? [{ kind: 'duplicateDetected' }, { kind: 'completed' }]
        : [{ kind: 'completed' }];
    case 'parked':
      return [{ kind: 'sessionBlocked', blockedByEventId: verdict.blockedByEventId }];
    case 'failed':
      return [{ kind: 'failed', error: verdict.error }];
    case 'deadLetter':
      return [
        { kind: 'failed', error: verdict.error },
        { kind: 'deadLettered', reason: verdict.reason, error: verdict.error },
      ];
    case 'transient':
      return [{ kind: 'failed', error: verdict.error }];
    case 'refused':
    case 'skipped':
      return [];
  }
}

/** The string-valued headers of a message whose headers may be anything (for notices about unreadable ones). */
export function readableHeaders(headers: unknown): Record<string, string> {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return {};
  return Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

export function lifecycleContextOf(work: Work, endpointId: string, now: number): LifecycleContext {
  const m = work.message;
  return {
    messageId: m.messageId,
    eventId: m.eventId,
    eventTypeId: m.eventTypeId,
    correlationId: m.correlationId,
    sessionId: m.sessionId,
    endpointId,
    messageType: m.messageType,
    enqueuedAt: work.enqueuedAt,
    isReplay: work.isReplay,
    timestamp: new Date(now),
  };
}

export function rawLifecycleContext(
  received: ReceivedMessage,
  endpointId: string,
  now: number,
): LifecycleContext {
  const h = readableHeaders(received.headers);
  return {
    messageId: received.messageId || null,
    eventId: h[Header.EventId] ?? null,
    eventTypeId: h[Header.EventTypeId] ?? null,
    correlationId: received.correlationId,
    sessionId: received.sessionId || null,
    endpointId,
    messageType: h[Header.MessageType] ?? null,
    enqueuedAt: received.enqueuedAt,
    isReplay: false,
    timestamp: new Date(now),
  };
}

/** The Resolver's dead-letter notice for an unreadable message, when enough of its identity is readable. */
export function invalidMessageNotice(
  deps: EngineDeps,
  message: TransportMessage,
  reason: string,
  withContent = true,
): MessageEnvelope | null {
  const h = readableHeaders(message.headers);
  if (!h[Header.From] || !h[Header.EventId]) return null;
  const content =
    withContent && typeof message.body === 'string' ? decodeContent(message.body) : EMPTY_CONTENT;
  const inbound = createEnvelope({
    messageId: message.messageId || uuidv7(),
    to: h[Header.To] || deps.endpointId,
    from: h[Header.From],
    sessionId: message.sessionId || 'unknown',
    correlationId: message.correlationId,
    messageType: MessageType.EventRequest,
    eventId: h[Header.EventId],
    eventTypeId: h[Header.EventTypeId] || null,
    content: typeof content === 'string' ? EMPTY_CONTENT : content,
  });
  return deps.responses.deadLetterNotice(inbound, reason, null, null);
}

/** The engine's own "keep replaying" trigger, sent when a settlement's replay budget is used up. */
export function continuationRequest(deps: EngineDeps, sessionId: string): MessageEnvelope {
  return createEnvelope({
    messageId: uuidv7(deps.clock.now()),
    to: Addresses.continuation,
    from: deps.endpointId,
    sessionId,
    messageType: MessageType.ContinuationRequest,
    eventId: uuidv7(deps.clock.now()),
    ...activeTraceFields(),
  });
}

/** The received message's body and header bytes (headers that are not text, as a corrupt row has, count 0). */
function receivedSize(message: TransportMessage): number {
  let size = typeof message.body === 'string' ? Buffer.byteLength(message.body, 'utf8') : 0;
  for (const [name, value] of Object.entries(message.headers ?? {}))
    if (typeof value === 'string') size += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  return size;
}

/**
 * The transport refused the settlement with its effects (a response larger than its budget, an invalid
 * message): nothing was applied, and delivering it again would fail the same way. Dead-letter it alone.
 */
export async function deadLetterUnsettleable(
  deps: EngineDeps,
  session: SessionHandle,
  received: ReceivedMessage,
  error: unknown,
): Promise<void> {
  // The message's own size says what an operator must shrink (the refused batch carries it more than once).
  const description = `The transport refused to settle this message with its effects: ${String((error as Error).message)} (the message is ${receivedSize(received)} bytes)`;
  deps.logger.warn(
    { messageId: received.messageId, sessionId: received.sessionId, description },
    'Dead-lettered a message whose settlement was refused.',
  );
  // The Resolver hears of it without the payload (which may be what was too large), so the store's row ends
  // DeadLettered with the reason instead of staying Pending; if even that is refused, it is dead-lettered alone.
  const notice = invalidMessageNotice(deps, received, description, false);
  if (notice) {
    const told = {
      ...notice,
      deadLetterReason: SETTLEMENT_REFUSED_REASON,
      deadLetterErrorDescription: description,
    };
    try {
      await session.deadLetter(received, {
        reason: SETTLEMENT_REFUSED_REASON,
        description,
        effects: {
          publish: [{ source: deps.endpointId, messages: [encodeEnvelope(told)] }],
        },
      });
      return;
    } catch (second) {
      if (!isUnsettleable(second)) throw second;
    }
  }
  await session.deadLetter(received, { reason: SETTLEMENT_REFUSED_REASON, description });
}
