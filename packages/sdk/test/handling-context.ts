import { createEnvelope, type MessageHandlingContext, MessageType } from '@nimbus/core';
import { order } from './fixtures.js';

/** An engine-level handling context for one EventRequest, as the engine would give the subscriber. */
export function contextFor(
  init: {
    eventTypeId?: string | null;
    bodyType?: string | null;
    json?: string | null;
    originatingMessageId?: string;
    messageId?: string;
  } = {},
): MessageHandlingContext {
  const eventTypeId = init.eventTypeId === undefined ? 'OrderPlaced' : init.eventTypeId;
  const bodyType = init.bodyType === undefined ? eventTypeId : init.bodyType;
  const message = createEnvelope({
    messageId: init.messageId ?? 'm-1',
    to: 'Billing',
    from: 'Sales',
    sessionId: 's-1',
    correlationId: 'c-1',
    messageType: MessageType.EventRequest,
    eventId: 'e-1',
    eventTypeId,
    parentMessageId: 'p-0',
    originatingMessageId: init.originatingMessageId ?? 'self',
    content: {
      eventContent:
        bodyType === null
          ? null
          : {
              eventTypeId: bodyType ?? '',
              eventJson: init.json === undefined ? JSON.stringify(order(1)) : (init.json as string),
            },
      errorContent: null,
    },
  });
  let handoff: MessageHandlingContext['pendingHandoff'] = null;
  return {
    message,
    endpointId: 'Billing',
    isReplay: false,
    deliveryCount: 1,
    signal: new AbortController().signal,
    markPendingHandoff: (h) => {
      handoff = h;
    },
    get pendingHandoff() {
      return handoff;
    },
  };
}
