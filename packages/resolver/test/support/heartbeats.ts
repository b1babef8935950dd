import {
  Addresses,
  createEnvelope,
  HEARTBEAT_EVENT_TYPE_ID,
  type MessageEnvelope,
  MessageType,
} from '@nimbus/core';

/** An answer to an endpoint probe as the engine sends it (payload fields are the engine's camelCase). */
export function heartbeatAnswer(
  init: Partial<MessageEnvelope> & { payload?: Record<string, unknown> } = {},
): MessageEnvelope {
  const { payload, ...rest } = init;
  const json = JSON.stringify(payload ?? {});
  return createEnvelope({
    messageId: `answer-${Math.random().toString(36).slice(2)}`,
    to: Addresses.resolver,
    from: 'Billing',
    sessionId: 'Heartbeat',
    correlationId: 'probe-1',
    parentMessageId: 'probe-1',
    messageType: MessageType.ResolutionResponse,
    eventId: 'hb-event-1',
    eventTypeId: HEARTBEAT_EVENT_TYPE_ID,
    content: { eventContent: { eventTypeId: HEARTBEAT_EVENT_TYPE_ID, eventJson: json }, errorContent: null },
    ...rest,
  });
}
