import { MessageType } from '@nimbus/core';
import {
  EndpointRole,
  HANDOFF_SUB_STATUS,
  type NimBusMessageStore,
  ResolutionStatus,
} from '@nimbus/message-store';

export const ERP = 'Erp';
export const FAILED_EVENT = 'evt-failed-1';
export const DEFERRED_EVENTS = ['evt-deferred-2', 'evt-deferred-3'] as const;
export const OTHER_FAILED_EVENT = 'evt-failed-4';
export const HANDOFF_EVENT = 'evt-handoff-5';
export const PENDING_EVENT = 'evt-pending-6';
export const BLOCKED_SESSION = 'cust-1';

const payload = (customerId: string) => JSON.stringify({ customerId, name: `Customer ${customerId}` });
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));

/**
 * Writes what the Resolver would have written for a few events at the Erp endpoint: a failed event blocking
 * session cust-1 with two deferred siblings behind it, another failed event, a pending handoff and a pending row.
 */
export async function seedErp(store: NimBusMessageStore): Promise<void> {
  const request = async (eventId: string, sessionId: string, minute: number) => {
    await store.storeMessage({
      eventId,
      messageId: `${eventId}-m1`,
      endpointId: ERP,
      enqueuedTimeUtc: at(minute),
      messageType: MessageType.EventRequest,
      eventTypeId: 'CustomerChanged',
      sessionId,
      from: 'Crm',
      to: ERP,
      endpointRole: EndpointRole.Subscriber,
      messageContent: {
        eventContent: { eventTypeId: 'CustomerChanged', eventJson: payload(sessionId) },
        errorContent: null,
      },
    });
  };
  const row = (eventId: string, sessionId: string, minute: number, messageType: MessageType, extra = {}) => ({
    enqueuedTimeUtc: at(minute),
    messageType,
    lastMessageId: `${eventId}-m1`,
    eventTypeId: 'CustomerChanged',
    from: 'Crm',
    to: ERP,
    correlationId: `corr-${eventId}`,
    endpointRole: EndpointRole.Subscriber,
    messageContent: {
      eventContent: { eventTypeId: 'CustomerChanged', eventJson: payload(sessionId) },
      errorContent: null,
    },
    ...extra,
  });
  const failure = {
    messageContent: {
      eventContent: null,
      errorContent: {
        errorText: 'ERP said no: customer locked',
        errorType: 'Error',
        exceptionStackTrace: null,
        exceptionSource: null,
      },
    },
  };

  await request(FAILED_EVENT, BLOCKED_SESSION, 1);
  await store.writeStatus({
    key: { endpointId: ERP, eventId: FAILED_EVENT, sessionId: BLOCKED_SESSION },
    status: ResolutionStatus.Failed,
    content: row(FAILED_EVENT, BLOCKED_SESSION, 1, MessageType.ErrorResponse, failure),
  });
  for (const [i, eventId] of DEFERRED_EVENTS.entries()) {
    await request(eventId, BLOCKED_SESSION, 2 + i);
    await store.writeStatus({
      key: { endpointId: ERP, eventId: eventId, sessionId: BLOCKED_SESSION },
      status: ResolutionStatus.Deferred,
      content: row(eventId, BLOCKED_SESSION, 2 + i, MessageType.DeferralResponse),
    });
  }
  await request(OTHER_FAILED_EVENT, 'cust-4', 5);
  await store.writeStatus({
    key: { endpointId: ERP, eventId: OTHER_FAILED_EVENT, sessionId: 'cust-4' },
    status: ResolutionStatus.Failed,
    content: row(OTHER_FAILED_EVENT, 'cust-4', 5, MessageType.ErrorResponse, failure),
  });
  await request(HANDOFF_EVENT, 'cust-5', 6);
  await store.writeStatus({
    key: { endpointId: ERP, eventId: HANDOFF_EVENT, sessionId: 'cust-5' },
    status: ResolutionStatus.Pending,
    content: row(HANDOFF_EVENT, 'cust-5', 6, MessageType.PendingHandoffResponse, {
      pendingSubStatus: HANDOFF_SUB_STATUS,
      handoffReason: 'waiting for credit check',
      externalJobId: 'job-5',
    }),
  });
  await request(PENDING_EVENT, 'cust-6', 7);
  await store.writeStatus({
    key: { endpointId: ERP, eventId: PENDING_EVENT, sessionId: 'cust-6' },
    status: ResolutionStatus.Pending,
    content: row(PENDING_EVENT, 'cust-6', 7, MessageType.EventRequest),
  });
}

/** Failed (or `status`) rows on `endpointId`, one session each, as the Resolver would record them (paging tests). */
export async function seedFailedRows(
  store: NimBusMessageStore,
  endpointId: string,
  ids: readonly string[],
  failure: {
    readonly sessionOf?: (eventId: string, index: number) => string;
    readonly errorTextOf?: (eventId: string, index: number) => string;
    /** Failed unless given (e.g. DeadLettered). */
    readonly status?: ResolutionStatus;
  } = {},
): Promise<void> {
  for (const [i, eventId] of ids.entries()) {
    const sessionId = failure.sessionOf?.(eventId, i) ?? `session-${eventId}`;
    const content = { eventTypeId: 'CustomerChanged', eventJson: payload(sessionId) };
    await store.storeMessage({
      eventId,
      messageId: `${eventId}-m1`,
      endpointId,
      enqueuedTimeUtc: at(i % 60),
      messageType: MessageType.EventRequest,
      eventTypeId: 'CustomerChanged',
      sessionId,
      from: 'Crm',
      to: endpointId,
      endpointRole: EndpointRole.Subscriber,
      messageContent: { eventContent: content, errorContent: null },
    });
    await store.writeStatus({
      key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
      status: failure.status ?? ResolutionStatus.Failed,
      content: {
        enqueuedTimeUtc: at(i % 60),
        messageType: MessageType.ErrorResponse,
        lastMessageId: `${eventId}-m1`,
        eventTypeId: 'CustomerChanged',
        from: 'Crm',
        to: endpointId,
        correlationId: `corr-${eventId}`,
        endpointRole: EndpointRole.Subscriber,
        messageContent: {
          eventContent: null,
          errorContent: {
            errorText: failure.errorTextOf?.(eventId, i) ?? `seeded failure ${eventId}`,
            errorType: 'Error',
            exceptionStackTrace: null,
            exceptionSource: null,
          },
        },
      },
    });
  }
}
