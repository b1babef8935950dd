import { Header, type Headers, type MessageEnvelope, MessageType } from '@nimbus/core';
import type { MessageEntityWrite } from '../entities/message-entity.js';
import type { RetryState } from '../entities/retry-state.js';
import type { UnresolvedEventWrite } from '../entities/unresolved-event.js';
import { HANDOFF_SUB_STATUS } from '../enums.js';
import type { ResolvedEndpoint } from './endpoint.js';

/** A decoded message plus the transport facts the records need. */
export interface ResolverInput {
  readonly envelope: MessageEnvelope;
  readonly headers: Headers;
  readonly enqueuedAt: Date;
}

function header(headers: Headers, name: string): string | null {
  const value = headers[name];
  return value === undefined ? null : value;
}

/** The history record of one bus message. */
export function historyRecord(input: ResolverInput, endpoint: ResolvedEndpoint): MessageEntityWrite {
  const m = input.envelope;
  return {
    eventId: m.eventId ?? '',
    messageId: m.messageId,
    eventTypeId: m.eventTypeId ?? m.content.eventContent?.eventTypeId ?? null,
    originatingMessageId: m.originatingMessageId,
    parentMessageId: m.parentMessageId,
    from: m.from,
    to: m.to,
    originatingFrom: m.originatingFrom,
    sessionId: m.sessionId,
    correlationId: m.correlationId,
    enqueuedTimeUtc: input.enqueuedAt,
    messageContent: m.content,
    messageType: m.messageType,
    endpointRole: endpoint.role,
    endpointId: endpoint.endpointId,
    retryCount: m.retryCount,
    retryLimit: m.retryLimit,
    deadLetterReason: m.deadLetterReason,
    deadLetterErrorDescription: m.deadLetterErrorDescription,
    originalSessionId: m.originalSessionId,
    deferralSequence: m.deferralSequence,
    queueTimeMs: m.queueTimeMs,
    processingTimeMs: m.processingTimeMs,
    pendingSubStatus: m.messageType === MessageType.PendingHandoffResponse ? HANDOFF_SUB_STATUS : null,
    handoffReason: m.handoffReason,
    externalJobId: m.externalJobId,
    expectedBy: m.expectedBy,
    cloudEventId: header(input.headers, Header.CloudEventId),
    cloudEventSource: header(input.headers, Header.CloudEventSource),
    cloudEventType: header(input.headers, Header.CloudEventType),
    cloudEventSubject: header(input.headers, Header.CloudEventSubject),
  };
}

/** The state row written for the event at the endpoint; its content is the latest message's. */
export function stateRow(
  record: MessageEntityWrite,
  processingTimeMs: number | null,
  retry: RetryState | null,
): UnresolvedEventWrite {
  const reason =
    record.messageType === MessageType.SkipResponse
      ? (record.messageContent?.errorContent?.errorText ?? null)
      : (record.deadLetterErrorDescription ?? null);
  return {
    enqueuedTimeUtc: record.enqueuedTimeUtc,
    correlationId: record.correlationId ?? null,
    endpointRole: record.endpointRole,
    retryCount: record.retryCount ?? null,
    retryLimit: record.retryLimit ?? null,
    retry,
    messageType: record.messageType,
    deadLetterReason: record.deadLetterReason ?? null,
    deadLetterErrorDescription: record.deadLetterErrorDescription ?? null,
    lastMessageId: record.messageId,
    originatingMessageId: record.originatingMessageId ?? null,
    parentMessageId: record.parentMessageId ?? null,
    reason,
    originatingFrom: record.originatingFrom ?? null,
    eventTypeId: record.eventTypeId ?? null,
    to: record.to ?? null,
    from: record.from ?? null,
    ...(record.messageContent ? { messageContent: record.messageContent } : {}),
    queueTimeMs: record.queueTimeMs ?? null,
    processingTimeMs,
    pendingSubStatus: record.pendingSubStatus ?? null,
    handoffReason: record.handoffReason ?? null,
    externalJobId: record.externalJobId ?? null,
    expectedBy: record.expectedBy ?? null,
    cloudEventId: record.cloudEventId ?? null,
    cloudEventSource: record.cloudEventSource ?? null,
    cloudEventType: record.cloudEventType ?? null,
    cloudEventSubject: record.cloudEventSubject ?? null,
  };
}
