import { createEnvelope, type MessageEnvelope } from '@nimbus/core';
import type { MessageTrackingStore, UnresolvedEvent } from '@nimbus/message-store';

/**
 * Rebuilds the failed message the operator client acts on from the stored row and the newest stored
 * payload (status rows carry no payload after a failure response). Its id is the row's last message, so
 * the control message names it as parent, exactly as the WebApp does.
 */
export async function failedEnvelopeOf(
  store: Pick<MessageTrackingStore, 'getLatestEventRequestMessage'>,
  row: UnresolvedEvent,
): Promise<MessageEnvelope> {
  const request = await store.getLatestEventRequestMessage(row.eventId);
  const eventContent = request?.messageContent.eventContent ?? row.messageContent.eventContent ?? null;
  return createEnvelope({
    messageId: row.lastMessageId ?? row.eventId,
    to: row.endpointId,
    from: row.from,
    sessionId: row.sessionId,
    correlationId: row.correlationId,
    messageType: row.messageType,
    eventId: row.eventId,
    eventTypeId: row.eventTypeId ?? eventContent?.eventTypeId ?? null,
    originatingMessageId: row.originatingMessageId ?? 'self',
    content: { eventContent, errorContent: null },
  });
}
