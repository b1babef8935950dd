import { EMPTY_CONTENT, type MessageContent } from '@nimbus/core';
import type { MessageAuditEntity, MessageAuditWrite } from './entities/message-audit.js';
import type { MessageEntity, MessageEntityWrite } from './entities/message-entity.js';
import type { UnresolvedEvent, UnresolvedEventWrite } from './entities/unresolved-event.js';
import { EndpointRole, type ResolutionStatus } from './enums.js';

/*
 * Turn caller input into the full stored shape: omitted optionals become null, `""` stays `""`.
 * Providers use these so every provider fills defaults the same way.
 */

export interface StatusWriteKey {
  readonly eventId: string;
  readonly sessionId: string;
  readonly endpointId: string;
}

export function toUnresolvedEvent(
  key: StatusWriteKey,
  status: ResolutionStatus,
  content: UnresolvedEventWrite,
  updatedAt: Date,
): UnresolvedEvent {
  return {
    updatedAt,
    enqueuedTimeUtc: content.enqueuedTimeUtc,
    eventId: key.eventId,
    sessionId: key.sessionId,
    correlationId: content.correlationId ?? null,
    resolutionStatus: status,
    endpointRole: content.endpointRole ?? EndpointRole.Subscriber,
    endpointId: key.endpointId,
    retryCount: content.retryCount ?? null,
    retryLimit: content.retryLimit ?? null,
    retry: content.retry ?? null,
    messageType: content.messageType,
    deadLetterReason: content.deadLetterReason ?? null,
    deadLetterErrorDescription: content.deadLetterErrorDescription ?? null,
    lastMessageId: content.lastMessageId ?? null,
    originatingMessageId: content.originatingMessageId ?? null,
    parentMessageId: content.parentMessageId ?? null,
    reason: content.reason ?? null,
    originatingFrom: content.originatingFrom ?? null,
    eventTypeId: content.eventTypeId ?? null,
    to: content.to ?? null,
    from: content.from ?? null,
    messageContent: content.messageContent ?? EMPTY_CONTENT,
    queueTimeMs: content.queueTimeMs ?? null,
    processingTimeMs: content.processingTimeMs ?? null,
    pendingSubStatus: content.pendingSubStatus ?? null,
    handoffReason: content.handoffReason ?? null,
    externalJobId: content.externalJobId ?? null,
    expectedBy: content.expectedBy ?? null,
    cloudEventId: content.cloudEventId ?? null,
    cloudEventSource: content.cloudEventSource ?? null,
    cloudEventType: content.cloudEventType ?? null,
    cloudEventSubject: content.cloudEventSubject ?? null,
  };
}

export function toMessageEntity(message: MessageEntityWrite): MessageEntity {
  return {
    eventId: message.eventId,
    messageId: message.messageId,
    eventTypeId: message.eventTypeId ?? null,
    originatingMessageId: message.originatingMessageId ?? null,
    parentMessageId: message.parentMessageId ?? null,
    from: message.from ?? null,
    to: message.to ?? null,
    originatingFrom: message.originatingFrom ?? null,
    sessionId: message.sessionId ?? null,
    correlationId: message.correlationId ?? null,
    enqueuedTimeUtc: message.enqueuedTimeUtc,
    messageContent: message.messageContent ?? EMPTY_CONTENT,
    messageType: message.messageType,
    endpointRole: message.endpointRole ?? EndpointRole.Subscriber,
    endpointId: message.endpointId,
    retryCount: message.retryCount ?? null,
    retryLimit: message.retryLimit ?? null,
    deadLetterReason: message.deadLetterReason ?? null,
    deadLetterErrorDescription: message.deadLetterErrorDescription ?? null,
    originalSessionId: message.originalSessionId ?? null,
    deferralSequence: message.deferralSequence ?? null,
    queueTimeMs: message.queueTimeMs ?? null,
    processingTimeMs: message.processingTimeMs ?? null,
    pendingSubStatus: message.pendingSubStatus ?? null,
    handoffReason: message.handoffReason ?? null,
    externalJobId: message.externalJobId ?? null,
    expectedBy: message.expectedBy ?? null,
    cloudEventId: message.cloudEventId ?? null,
    cloudEventSource: message.cloudEventSource ?? null,
    cloudEventType: message.cloudEventType ?? null,
    cloudEventSubject: message.cloudEventSubject ?? null,
  };
}

export function toMessageAudit(
  eventId: string,
  audit: MessageAuditWrite,
  endpointId: string | null,
): MessageAuditEntity {
  return {
    auditorName: audit.auditorName,
    auditTimestamp: audit.auditTimestamp,
    auditType: audit.auditType,
    comment: audit.comment ?? null,
    accessDenied: audit.accessDenied ?? false,
    data: audit.data ?? null,
    eventId: audit.eventId ?? eventId,
    endpointId: audit.endpointId ?? endpointId,
    cloudEventId: audit.cloudEventId ?? null,
    cloudEventSource: audit.cloudEventSource ?? null,
    cloudEventType: audit.cloudEventType ?? null,
    cloudEventSubject: audit.cloudEventSubject ?? null,
  };
}

/** Search and list projections drop the heavy payload; `eventJson` reads as `""` there. */
export function withoutEventJson(content: MessageContent): MessageContent {
  if (content.eventContent === null) return content;
  return { ...content, eventContent: { eventTypeId: content.eventContent.eventTypeId, eventJson: '' } };
}

/** The entity as search and list results show it: `withoutEventJson` applied to its content. */
export function withEventJsonStripped<T extends { readonly messageContent: MessageContent }>(entity: T): T {
  return { ...entity, messageContent: withoutEventJson(entity.messageContent) };
}
