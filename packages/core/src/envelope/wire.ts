import { headerProblems } from '../transport/message-validation.js';
import type { TransportMessage } from '../transport/transport-message.js';
import { createEnvelope, type MessageEnvelope } from './envelope.js';
import { Header } from './headers.js';
import { InvalidMessageError } from './invalid-message-error.js';
import type { ErrorContent, EventContent, MessageContent } from './message-content.js';
import { isMessageType, MessageType } from './message-type.js';

const SELF = 'self';

function put(headers: Record<string, string>, name: string, value: string | number | null | undefined): void {
  if (value === null || value === undefined || value === '') return;
  headers[name] = String(value);
}

export function encodeContent(content: MessageContent): string {
  return JSON.stringify({ eventContent: content.eventContent, errorContent: content.errorContent });
}

/** Turns an envelope into the transport shape: headers for routing and lineage, JSON for content. */
export function encodeEnvelope(envelope: MessageEnvelope): TransportMessage {
  const headers: Record<string, string> = {};
  put(headers, Header.To, envelope.to);
  put(headers, Header.From, envelope.from);
  put(headers, Header.MessageType, envelope.messageType);
  put(headers, Header.EventId, envelope.eventId);
  put(headers, Header.EventTypeId, envelope.eventTypeId ?? envelope.content.eventContent?.eventTypeId);
  put(headers, Header.ParentMessageId, envelope.parentMessageId || SELF);
  put(headers, Header.OriginatingMessageId, envelope.originatingMessageId || SELF);
  put(headers, Header.OriginatingFrom, envelope.originatingFrom || SELF);
  put(headers, Header.RetryCount, envelope.retryCount ?? 0);
  put(headers, Header.RetryLimit, envelope.retryLimit);
  put(headers, Header.NextRetryAt, envelope.nextRetryAt?.toISOString());
  put(headers, Header.OriginalSessionId, envelope.originalSessionId);
  put(headers, Header.DeferralSequence, envelope.deferralSequence);
  put(headers, Header.QueueTimeMs, envelope.queueTimeMs);
  put(headers, Header.ProcessingTimeMs, envelope.processingTimeMs);
  put(headers, Header.DeadLetterReason, envelope.deadLetterReason);
  put(headers, Header.DeadLetterErrorDescription, envelope.deadLetterErrorDescription);
  put(headers, Header.HandoffReason, envelope.handoffReason);
  put(headers, Header.ExternalJobId, envelope.externalJobId);
  put(headers, Header.ExpectedBy, envelope.expectedBy?.toISOString());
  put(headers, Header.ReplyTo, envelope.replyTo);
  put(headers, Header.ReplyToSessionId, envelope.replyToSessionId);
  put(headers, Header.ThrottleRetryCount, envelope.throttleRetryCount);
  put(headers, Header.TraceParent, envelope.traceParent);
  put(headers, Header.TraceState, envelope.traceState);
  if (envelope.acknowledgeOutOfOrder) put(headers, Header.AcknowledgeOutOfOrder, 'true');
  return {
    messageId: envelope.messageId,
    sessionId: envelope.sessionId,
    correlationId: envelope.correlationId,
    headers,
    body: encodeContent(envelope.content),
  };
}

function optionalInt(value: string | undefined): number | null {
  if (value === undefined || !/^-?\d+$/.test(value)) return null;
  return Number(value);
}

function optionalDate(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nullableString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Parses a body into {@link MessageContent}; returns a problem text instead of throwing. */
export function decodeContent(body: string): MessageContent | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return `body is not valid JSON (${(error as Error).message})`;
  }
  if (!isRecord(parsed)) return 'body is not a JSON object with eventContent/errorContent';
  let eventContent: EventContent | null = null;
  let errorContent: ErrorContent | null = null;
  const event = parsed.eventContent;
  if (event !== null && event !== undefined) {
    if (!isRecord(event) || typeof event.eventTypeId !== 'string' || typeof event.eventJson !== 'string') {
      return 'body.eventContent must have string eventTypeId and eventJson';
    }
    eventContent = { eventTypeId: event.eventTypeId, eventJson: event.eventJson };
  }
  const error = parsed.errorContent;
  if (error !== null && error !== undefined) {
    if (!isRecord(error) || typeof error.errorText !== 'string') {
      return 'body.errorContent must have a string errorText';
    }
    errorContent = {
      errorText: error.errorText,
      errorType: nullableString(error.errorType),
      exceptionStackTrace: nullableString(error.exceptionStackTrace),
      exceptionSource: nullableString(error.exceptionSource),
    };
  }
  return { eventContent, errorContent };
}

/**
 * Reads a transport message as an envelope. Throws {@link InvalidMessageError} listing every problem:
 * missing required headers (To, From, MessageType, EventId for requests), an unknown message type,
 * or a body that is not NimBus content.
 */
export function decodeEnvelope(message: TransportMessage): MessageEnvelope {
  // Headers that are not an object of strings (null, numbers, arrays) are named, never a raw TypeError.
  const headerShape = headerProblems(message?.headers);
  if (headerShape) throw new InvalidMessageError(headerShape);
  const h = message.headers;
  const problems: string[] = [];
  if (!message.messageId) problems.push('missing message id');
  if (!message.sessionId) problems.push('missing session id');
  if (!h[Header.To]) problems.push(`missing required header '${Header.To}'`);
  if (!h[Header.From]) problems.push(`missing required header '${Header.From}'`);
  const type = h[Header.MessageType];
  if (!type) problems.push(`missing required header '${Header.MessageType}'`);
  else if (!isMessageType(type) || type === MessageType.Unknown)
    problems.push(`unknown MessageType '${type}'`);
  if (!h[Header.EventId]) problems.push(`missing required header '${Header.EventId}'`);
  const content =
    typeof message.body === 'string' ? decodeContent(message.body) : 'body must be a string of JSON';
  if (typeof content === 'string') problems.push(content);
  if (problems.length > 0 || typeof content === 'string') throw new InvalidMessageError(problems);
  return createEnvelope({
    messageId: message.messageId,
    sessionId: message.sessionId,
    correlationId: message.correlationId,
    to: h[Header.To]!,
    from: h[Header.From]!,
    messageType: type as MessageType,
    eventId: h[Header.EventId]!,
    eventTypeId: h[Header.EventTypeId] || content.eventContent?.eventTypeId || null,
    parentMessageId: h[Header.ParentMessageId] || SELF,
    originatingMessageId: h[Header.OriginatingMessageId] || SELF,
    originatingFrom: h[Header.OriginatingFrom] || SELF,
    retryCount: optionalInt(h[Header.RetryCount]),
    retryLimit: optionalInt(h[Header.RetryLimit]),
    nextRetryAt: optionalDate(h[Header.NextRetryAt]),
    originalSessionId: h[Header.OriginalSessionId] ?? null,
    deferralSequence: optionalInt(h[Header.DeferralSequence]),
    replyTo: h[Header.ReplyTo] ?? null,
    replyToSessionId: h[Header.ReplyToSessionId] ?? null,
    queueTimeMs: optionalInt(h[Header.QueueTimeMs]),
    processingTimeMs: optionalInt(h[Header.ProcessingTimeMs]),
    deadLetterReason: h[Header.DeadLetterReason] ?? null,
    deadLetterErrorDescription: h[Header.DeadLetterErrorDescription] ?? null,
    handoffReason: h[Header.HandoffReason] ?? null,
    externalJobId: h[Header.ExternalJobId] ?? null,
    expectedBy: optionalDate(h[Header.ExpectedBy]),
    throttleRetryCount: optionalInt(h[Header.ThrottleRetryCount]),
    traceParent: h[Header.TraceParent] ?? null,
    traceState: h[Header.TraceState] ?? null,
    acknowledgeOutOfOrder: h[Header.AcknowledgeOutOfOrder] === 'true',
    content,
  });
}
