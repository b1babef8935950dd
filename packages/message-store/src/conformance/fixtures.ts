import { type ManualClock, type MessageContent, MessageType } from '@nimbus/core';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { MessageEntityWrite } from '../entities/message-entity.js';
import type { UnresolvedEventWrite } from '../entities/unresolved-event.js';
import { EndpointRole, type MessageAuditType, ResolutionStatus } from '../enums.js';

export function content(eventJson: string | null, errorText: string | null = null): MessageContent {
  return {
    eventContent: eventJson === null ? null : { eventTypeId: 'OrderPlaced', eventJson },
    errorContent:
      errorText === null
        ? null
        : {
            errorText,
            errorType: 'System.TimeoutException',
            exceptionStackTrace: 'at Foo()',
            exceptionSource: null,
          },
  };
}

/** A typical resolver row as the Resolver would write it for an EventRequest. */
export function sampleEvent(
  clock: ManualClock,
  endpointId: string,
  overrides: Partial<UnresolvedEventWrite> = {},
): UnresolvedEventWrite {
  return {
    enqueuedTimeUtc: new Date(clock.now() - 1000),
    correlationId: 'corr-1',
    messageType: MessageType.EventRequest,
    eventTypeId: 'OrderPlaced',
    to: endpointId,
    from: 'publisher',
    lastMessageId: 'last-message',
    originatingMessageId: 'origin-message',
    endpointRole: EndpointRole.Subscriber,
    messageContent: content('{"orderId":42}'),
    ...overrides,
  };
}

export function sampleMessage(
  clock: ManualClock,
  eventId: string,
  messageId: string,
  endpointId: string,
  overrides: Partial<MessageEntityWrite> = {},
): MessageEntityWrite {
  return {
    eventId,
    messageId,
    endpointId,
    enqueuedTimeUtc: new Date(clock.now()),
    messageType: MessageType.EventRequest,
    eventTypeId: 'OrderPlaced',
    from: 'publisher',
    to: endpointId,
    sessionId: 's1',
    correlationId: 'corr-1',
    messageContent: content('{"orderId":42}'),
    ...overrides,
  };
}

/** Writes `row` with `status` for (endpoint, event, session). */
export function uploadAs(
  store: MessageTrackingStore,
  status: ResolutionStatus,
  eventId: string,
  sessionId: string,
  endpointId: string,
  row: UnresolvedEventWrite,
): Promise<boolean> {
  return store.writeStatus({ key: { endpointId, eventId, sessionId }, status, content: row });
}

/** Writes a `sampleEvent` row per `[eventId, sessionId, status]`, one after the other. */
export async function writeSampleRows(
  store: MessageTrackingStore,
  clock: ManualClock,
  endpointId: string,
  rows: readonly (readonly [eventId: string, sessionId: string, status: ResolutionStatus])[],
): Promise<void> {
  for (const [eventId, sessionId, status] of rows) {
    await uploadAs(store, status, eventId, sessionId, endpointId, sampleEvent(clock, endpointId));
  }
}

/** Reads the row in `status` through the matching lookup (Completed/Skipped via getEvent). */
export function getAs(
  store: MessageTrackingStore,
  status: ResolutionStatus,
  endpointId: string,
  eventId: string,
  sessionId: string,
) {
  switch (status) {
    case ResolutionStatus.Pending:
    case ResolutionStatus.Deferred:
    case ResolutionStatus.Failed:
    case ResolutionStatus.DeadLettered:
    case ResolutionStatus.Unsupported:
      return store.getEventInStatus({ key: { endpointId, eventId, sessionId }, status: status });
    default:
      return store.getEventById({ endpointId, id: `${eventId}_${sessionId}` });
  }
}

/** An audit entry as operators add them. */
export const audit = (auditorName: string, auditType: MessageAuditType, at: Date, extra: object = {}) => ({
  auditorName,
  auditType,
  auditTimestamp: at,
  ...extra,
});

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
