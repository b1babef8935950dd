import { MessageType } from '@nimbus/core';
import { EndpointRole, type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';

export const VAT_ERROR = (customer: string) => `VAT number 'X' of customer ${customer} is not registered`;

/**
 * `count` Failed CustomerChanged events at Erp, one session each, written as the Resolver writes a handler
 * failure (request row, then the Failed status row), with payloads the Erp handler accepts once the registry
 * is up: resubmitted, they complete.
 */
export async function seedVatFailures(
  store: NimBusMessageStore,
  count: number,
  prefix = 'vat',
): Promise<string[]> {
  const ids: string[] = [];
  const base = Date.now() - 3_600_000;
  for (let i = 0; i < count; i++) {
    const eventId = `${prefix}-${String(i).padStart(5, '0')}`;
    const sessionId = `C-${prefix}-${i}`;
    const eventJson = JSON.stringify({ customerId: sessionId, revision: 1, vatNumber: 'NL123456789B01' });
    const enqueuedTimeUtc = new Date(base + i);
    const content = { eventTypeId: 'CustomerChanged', eventJson };
    await store.storeMessage({
      eventId,
      messageId: `${eventId}-m1`,
      endpointId: 'Erp',
      enqueuedTimeUtc,
      messageType: MessageType.EventRequest,
      eventTypeId: 'CustomerChanged',
      sessionId,
      from: 'Crm',
      to: 'Erp',
      endpointRole: EndpointRole.Subscriber,
      messageContent: { eventContent: content, errorContent: null },
    });
    await store.writeStatus({
      key: { endpointId: 'Erp', eventId, sessionId },
      status: ResolutionStatus.Failed,
      content: {
        enqueuedTimeUtc,
        messageType: MessageType.ErrorResponse,
        lastMessageId: `${eventId}-m1`,
        eventTypeId: 'CustomerChanged',
        from: 'Crm',
        to: 'Erp',
        correlationId: `corr-${eventId}`,
        endpointRole: EndpointRole.Subscriber,
        messageContent: {
          eventContent: null,
          errorContent: {
            errorText: VAT_ERROR(sessionId),
            errorType: 'Error',
            exceptionStackTrace: null,
            exceptionSource: null,
          },
        },
      },
    });
    ids.push(eventId);
  }
  return ids;
}
