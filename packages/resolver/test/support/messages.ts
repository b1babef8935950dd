import { Addresses, createEnvelope, type MessageEnvelope, MessageType, uuidv7 } from '@nimbus/core';

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${++counter}-${uuidv7().slice(-6)}`;

export const EVENT_TYPE = 'Crm.CustomerChanged';

/** An event request as the consumer `to` receives it (and the Resolver gets a copy of). */
export function eventRequest(
  init: Partial<MessageEnvelope> & { to?: string; sessionId?: string } = {},
): MessageEnvelope {
  const messageId = init.messageId ?? nextId('req');
  return createEnvelope({
    messageId,
    to: 'Billing',
    from: 'Crm',
    sessionId: 'customer-1',
    correlationId: 'corr-1',
    messageType: MessageType.EventRequest,
    eventId: nextId('evt'),
    eventTypeId: EVENT_TYPE,
    originatingFrom: 'Crm',
    content: { eventContent: { eventTypeId: EVENT_TYPE, eventJson: '{"id":1}' }, errorContent: null },
    ...init,
  });
}

/** A response from the endpoint that handled `request`, addressed to the Resolver. */
export function responseTo(
  request: MessageEnvelope,
  messageType: MessageType,
  init: Partial<MessageEnvelope> = {},
): MessageEnvelope {
  return createEnvelope({
    messageId: nextId('rsp'),
    to: Addresses.resolver,
    from: request.to,
    sessionId: request.sessionId,
    correlationId: request.correlationId,
    messageType,
    eventId: request.eventId,
    eventTypeId: request.eventTypeId,
    parentMessageId: request.messageId,
    originatingMessageId: request.messageId,
    originatingFrom: request.from ?? 'self',
    content: request.content,
    ...init,
  });
}

/** An operator (Manager) request about `request`'s event, addressed to its endpoint. */
export function managerRequest(
  request: MessageEnvelope,
  messageType: MessageType,
  init: Partial<MessageEnvelope> = {},
): MessageEnvelope {
  return createEnvelope({
    messageId: nextId('mgr'),
    to: request.to,
    from: Addresses.manager,
    sessionId: request.sessionId,
    correlationId: request.correlationId,
    messageType,
    eventId: request.eventId,
    eventTypeId: request.eventTypeId,
    parentMessageId: request.messageId,
    originatingMessageId: request.messageId,
    originatingFrom: Addresses.manager,
    content: request.content,
    ...init,
  });
}
