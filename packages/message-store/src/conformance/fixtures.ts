import { type ManualClock, type MessageContent, MessageType } from '@nimbus/core';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { MessageEntityWrite } from '../entities/message-entity.js';
import type { UnresolvedEventWrite } from '../entities/unresolved-event.js';
import { EndpointRole, ResolutionStatus } from '../enums.js';

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

/** Calls the upload method that writes `status`. */
export function uploadAs(
  store: MessageTrackingStore,
  status: ResolutionStatus,
  eventId: string,
  sessionId: string,
  endpointId: string,
  row: UnresolvedEventWrite,
): Promise<boolean> {
  switch (status) {
    case ResolutionStatus.Pending:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Pending,
        content: row,
      });
    case ResolutionStatus.Deferred:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Deferred,
        content: row,
      });
    case ResolutionStatus.Failed:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Failed,
        content: row,
      });
    case ResolutionStatus.DeadLettered:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.DeadLettered,
        content: row,
      });
    case ResolutionStatus.Unsupported:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Unsupported,
        content: row,
      });
    case ResolutionStatus.Skipped:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Skipped,
        content: row,
      });
    case ResolutionStatus.Completed:
      return store.writeStatus({
        key: { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        status: ResolutionStatus.Completed,
        content: row,
      });
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
      return store.getEventInStatus(
        { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        ResolutionStatus.Pending,
      );
    case ResolutionStatus.Deferred:
      return store.getEventInStatus(
        { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        ResolutionStatus.Deferred,
      );
    case ResolutionStatus.Failed:
      return store.getEventInStatus(
        { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        ResolutionStatus.Failed,
      );
    case ResolutionStatus.DeadLettered:
      return store.getEventInStatus(
        { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        ResolutionStatus.DeadLettered,
      );
    case ResolutionStatus.Unsupported:
      return store.getEventInStatus(
        { endpointId: endpointId, eventId: eventId, sessionId: sessionId },
        ResolutionStatus.Unsupported,
      );
    default:
      return store.getEventById({ endpointId, id: `${eventId}_${sessionId}` });
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
