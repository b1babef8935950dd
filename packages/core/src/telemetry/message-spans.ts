import { type Attributes, type Link, type Span, SpanKind } from '@opentelemetry/api';
import { Header } from '../envelope/headers.js';
import type { TransportMessage } from '../transport/transport-message.js';
import { MessagingOperation, SpanName, TelemetryAttribute, TelemetryScope } from './names.js';
import { extractTraceContext, hasTraceContext, injectTraceContext } from './trace-context.js';
import { withSpan } from './with-span.js';

/** The documented messaging attributes of one message. */
export function messageAttributes(
  message: TransportMessage,
  operation: (typeof MessagingOperation)[keyof typeof MessagingOperation],
  destination: string,
  system: string,
): Attributes {
  const attributes: Attributes = {
    [TelemetryAttribute.MessagingSystem]: system,
    [TelemetryAttribute.OperationType]: operation,
    [TelemetryAttribute.DestinationName]: destination,
    [TelemetryAttribute.MessageId]: message.messageId,
    [TelemetryAttribute.SessionKey]: message.sessionId,
  };
  if (message.correlationId) attributes[TelemetryAttribute.ConversationId] = message.correlationId;
  const eventType = message.headers[Header.EventTypeId];
  if (eventType) attributes[TelemetryAttribute.EventType] = eventType;
  const messageType = message.headers[Header.MessageType];
  if (messageType) attributes[TelemetryAttribute.MessageType] = messageType;
  return attributes;
}

/**
 * A producer span `publish {to}` around sending `message`; `fn` gets the message with this span's
 * `traceparent`/`tracestate` stamped, which is what must be sent.
 */
export function withPublishSpan<T>(
  message: TransportMessage,
  system: string,
  fn: (stamped: TransportMessage, span: Span) => Promise<T> | T,
): Promise<T> {
  const to = message.headers[Header.To] ?? 'unknown';
  return withSpan(
    SpanName.publish(to),
    messageAttributes(message, MessagingOperation.Publish, to, system),
    (span) => fn({ ...message, headers: injectTraceContext(message.headers) }, span),
    { scope: TelemetryScope.Publisher, kind: SpanKind.PRODUCER },
  );
}

/**
 * A consumer span `process {to}` whose parent is the message's `traceparent` (a new trace when it has none).
 * `options` adds attributes and links (e.g. to the replay that brought a parked message back).
 */
export function withProcessSpan<T>(
  message: TransportMessage,
  system: string,
  fn: (span: Span) => Promise<T> | T,
  options: { readonly attributes?: Attributes; readonly links?: readonly Link[] } = {},
): Promise<T> {
  const to = message.headers[Header.To] ?? 'unknown';
  return withSpan(
    SpanName.process(to),
    {
      ...messageAttributes(message, MessagingOperation.Process, to, system),
      [TelemetryAttribute.HasParentTrace]: hasTraceContext(message.headers),
      ...options.attributes,
    },
    fn,
    {
      scope: TelemetryScope.Consumer,
      kind: SpanKind.CONSUMER,
      parent: extractTraceContext(message.headers),
      ...(options.links ? { links: options.links } : {}),
    },
  );
}
