import {
  Addresses,
  createEnvelope,
  type EventContent,
  encodeEnvelope,
  type MessageEnvelope,
  MessageType,
  type TransportMessage,
  uuidv7,
} from '@nimbus/core';
import type { UnresolvedEvent } from '@nimbus/message-store';

/**
 * Operator control messages, built from the stored row of the event they act on. Each goes to the
 * endpoint's own input (`To` = endpoint, `From` = Manager) with the event's EventId and SessionId, so the
 * engine handles it inside the blocked session and the Resolver gets its copy.
 */
function controlEnvelope(
  row: UnresolvedEvent,
  messageType: MessageType,
  now: number,
  content: MessageEnvelope['content'] = { eventContent: null, errorContent: null },
  acknowledgeOutOfOrder = false,
): MessageEnvelope {
  const parent = row.lastMessageId ?? 'self';
  return createEnvelope({
    messageId: uuidv7(now),
    to: row.endpointId,
    from: Addresses.manager,
    sessionId: row.sessionId,
    messageType,
    eventId: row.eventId,
    eventTypeId: content.eventContent?.eventTypeId ?? row.eventTypeId,
    correlationId: row.correlationId,
    parentMessageId: parent,
    originatingMessageId: row.originatingMessageId ?? parent,
    content,
    acknowledgeOutOfOrder,
  });
}

/** `acknowledgeOutOfOrder`: the operator confirmed the event may run after later events of its session. */
export function resubmissionRequest(
  row: UnresolvedEvent,
  eventContent: EventContent,
  now: number,
  acknowledgeOutOfOrder: boolean,
): TransportMessage {
  return encodeEnvelope(
    controlEnvelope(
      row,
      MessageType.ResubmissionRequest,
      now,
      { eventContent, errorContent: null },
      acknowledgeOutOfOrder,
    ),
  );
}

export function skipRequest(row: UnresolvedEvent, now: number): TransportMessage {
  return encodeEnvelope(controlEnvelope(row, MessageType.SkipRequest, now));
}

export function handoffCompletedRequest(
  row: UnresolvedEvent,
  resultJson: string | null,
  now: number,
): TransportMessage {
  const content =
    resultJson === null || row.eventTypeId === null
      ? undefined
      : { eventContent: { eventTypeId: row.eventTypeId, eventJson: resultJson }, errorContent: null };
  return encodeEnvelope(controlEnvelope(row, MessageType.HandoffCompletedRequest, now, content));
}

export function handoffFailedRequest(
  row: UnresolvedEvent,
  errorText: string,
  errorType: string | null,
  now: number,
): TransportMessage {
  return encodeEnvelope(
    controlEnvelope(row, MessageType.HandoffFailedRequest, now, {
      eventContent: null,
      errorContent: { errorText, errorType, exceptionStackTrace: null, exceptionSource: null },
    }),
  );
}

/** Asks the endpoint to replay the parked messages of one session (out-of-session trigger). */
export function processDeferredRequest(endpointId: string, sessionId: string, now: number): TransportMessage {
  return encodeEnvelope(
    createEnvelope({
      messageId: uuidv7(now),
      to: endpointId,
      from: Addresses.manager,
      sessionId,
      messageType: MessageType.ProcessDeferredRequest,
      eventId: uuidv7(now),
      correlationId: uuidv7(now),
    }),
  );
}
