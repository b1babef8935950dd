import { MAX_ID_LENGTH } from '@nimbus/core';
import type { MessageAuditEntity, MessageEntity, UnresolvedEvent } from '@nimbus/message-store';
import { z } from 'zod';

export const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

const IsoDate = z.string().describe('ISO-8601 UTC timestamp');

export const EventContentDto = z
  .object({ eventTypeId: z.string(), eventJson: z.string().nullable() })
  .nullable();
export const ErrorContentDto = z
  .object({
    errorText: z.string(),
    errorType: z.string().nullable(),
    exceptionStackTrace: z.string().nullable(),
    exceptionSource: z.string().nullable(),
  })
  .nullable();

/** A Failed event the retry policy will retry: attempt n of m, and when the next attempt is due. */
export const RetryDto = z
  .object({ attempt: z.number().int(), maxAttempts: z.number().int(), nextAttemptAt: IsoDate })
  .nullable()
  .describe('Set while a Failed event is retrying (not awaiting an operator); null otherwise');

export function retryDto(row: Pick<UnresolvedEvent, 'retry'>): z.input<typeof RetryDto> {
  const retry = row.retry;
  return retry ? { ...retry, nextAttemptAt: retry.nextAttemptAt.toISOString() } : null;
}

export const EventDto = z.object({
  endpointId: z.string(),
  eventId: z.string(),
  sessionId: z.string(),
  status: z.string(),
  eventTypeId: z.string().nullable(),
  correlationId: z.string().nullable(),
  lastMessageId: z.string().nullable(),
  originatingMessageId: z.string().nullable(),
  messageType: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  endpointRole: z.string(),
  retryCount: z.number().nullable(),
  retry: RetryDto,
  deadLetterReason: z.string().nullable(),
  deadLetterErrorDescription: z.string().nullable(),
  reason: z.string().nullable(),
  pendingSubStatus: z.string().nullable(),
  handoffReason: z.string().nullable(),
  externalJobId: z.string().nullable(),
  expectedBy: IsoDate.nullable(),
  queueTimeMs: z.number().nullable(),
  processingTimeMs: z.number().nullable(),
  enqueuedTimeUtc: IsoDate,
  updatedAt: IsoDate,
  errorContent: ErrorContentDto,
});

export function eventDto(row: UnresolvedEvent): z.input<typeof EventDto> {
  return {
    endpointId: row.endpointId,
    eventId: row.eventId,
    sessionId: row.sessionId,
    status: row.resolutionStatus,
    eventTypeId: row.eventTypeId,
    correlationId: row.correlationId,
    lastMessageId: row.lastMessageId,
    originatingMessageId: row.originatingMessageId,
    messageType: row.messageType,
    from: row.from,
    to: row.to,
    endpointRole: row.endpointRole,
    retryCount: row.retryCount,
    retry: retryDto(row),
    deadLetterReason: row.deadLetterReason,
    deadLetterErrorDescription: row.deadLetterErrorDescription,
    reason: row.reason,
    pendingSubStatus: row.pendingSubStatus,
    handoffReason: row.handoffReason,
    externalJobId: row.externalJobId,
    expectedBy: iso(row.expectedBy),
    queueTimeMs: row.queueTimeMs,
    processingTimeMs: row.processingTimeMs,
    enqueuedTimeUtc: row.enqueuedTimeUtc.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    errorContent: row.messageContent.errorContent,
  };
}

export const MessageDto = z.object({
  eventId: z.string(),
  messageId: z.string(),
  endpointId: z.string(),
  messageType: z.string(),
  eventTypeId: z.string().nullable(),
  sessionId: z.string().nullable(),
  correlationId: z.string().nullable(),
  parentMessageId: z.string().nullable(),
  originatingMessageId: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  endpointRole: z.string(),
  enqueuedTimeUtc: IsoDate,
  retryCount: z.number().nullable(),
  deadLetterReason: z.string().nullable(),
  deadLetterErrorDescription: z.string().nullable(),
  queueTimeMs: z.number().nullable(),
  processingTimeMs: z.number().nullable(),
  eventContent: EventContentDto,
  errorContent: ErrorContentDto,
});

export function messageDto(message: MessageEntity): z.input<typeof MessageDto> {
  return {
    eventId: message.eventId,
    messageId: message.messageId,
    endpointId: message.endpointId,
    messageType: message.messageType,
    eventTypeId: message.eventTypeId,
    sessionId: message.sessionId,
    correlationId: message.correlationId,
    parentMessageId: message.parentMessageId,
    originatingMessageId: message.originatingMessageId,
    from: message.from,
    to: message.to,
    endpointRole: message.endpointRole,
    enqueuedTimeUtc: message.enqueuedTimeUtc.toISOString(),
    retryCount: message.retryCount,
    deadLetterReason: message.deadLetterReason,
    deadLetterErrorDescription: message.deadLetterErrorDescription,
    queueTimeMs: message.queueTimeMs,
    processingTimeMs: message.processingTimeMs,
    eventContent: message.messageContent.eventContent,
    errorContent: message.messageContent.errorContent,
  };
}

export const AuditDto = z.object({
  auditorName: z.string(),
  auditTimestamp: IsoDate,
  auditType: z.string(),
  comment: z.string().nullable(),
  accessDenied: z.boolean(),
  data: z.string().nullable(),
  eventId: z.string().nullable(),
  endpointId: z.string().nullable(),
});

export function auditDto(audit: MessageAuditEntity): z.input<typeof AuditDto> {
  return {
    auditorName: audit.auditorName,
    auditTimestamp: audit.auditTimestamp.toISOString(),
    auditType: audit.auditType,
    comment: audit.comment,
    accessDenied: audit.accessDenied,
    data: audit.data,
    eventId: audit.eventId,
    endpointId: audit.endpointId,
  };
}

/** Shared schema pieces for route parameters. */
/** Event and session ids: exactly what publishing accepts (`MAX_ID_LENGTH`), so every published id opens. */
export const publishedId = z
  .string()
  .max(MAX_ID_LENGTH, `ids have at most ${MAX_ID_LENGTH} characters (the limit enforced at publish)`);
export const EndpointParams = z.object({ endpointId: z.string().min(1).max(200) });
export const EventParams = EndpointParams.extend({ eventId: publishedId.min(1) });
export const SessionParams = EndpointParams.extend({ sessionId: publishedId });
