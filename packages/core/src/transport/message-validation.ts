import { Header } from '../envelope/headers.js';
import { TransportError, TransportErrorCode } from './transport-error.js';
import type { TransportMessage } from './transport-message.js';

/**
 * The one length limit for every id a message carries (message id, session id, correlation id and the id
 * headers). The WebApp opens events, messages and sessions by these ids in URL paths, whose parameters it
 * accepts up to this length, so an id the bus accepts can always be opened by an operator.
 */
export const MAX_ID_LENGTH = 100;

/** Headers holding ids: limited to {@link MAX_ID_LENGTH} like the message's own ids. */
export const ID_HEADERS: readonly string[] = [
  Header.EventId,
  Header.ParentMessageId,
  Header.OriginatingMessageId,
  Header.OriginalSessionId,
  Header.ReplyToSessionId,
];

/**
 * What is wrong with a message's headers, or `null`: the headers must be a plain object whose values are all
 * strings, id headers must fit {@link MAX_ID_LENGTH}, and
 * `AcknowledgeOutOfOrder` is `true` or `false`. Each problem names the header. Used at publish (the
 * error is thrown) and at receive (the message is dead-lettered with the problem as reason).
 */
export function headerProblems(headers: unknown): string[] | null {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    return [`headers must be a JSON object of strings, got ${describeValue(headers)}`];
  }
  const problems: string[] = [];
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value !== 'string') {
      problems.push(`header '${name}' must be a string, got ${describeValue(value)}`);
    }
  }
  const acknowledgement = (headers as Record<string, unknown>)[Header.AcknowledgeOutOfOrder];
  if (typeof acknowledgement === 'string' && acknowledgement !== 'true' && acknowledgement !== 'false') {
    problems.push(
      `header '${Header.AcknowledgeOutOfOrder}' must be 'true' or 'false', got '${acknowledgement.slice(0, 20)}'`,
    );
  }
  for (const name of ID_HEADERS) {
    const value = (headers as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.length > MAX_ID_LENGTH) {
      problems.push(
        `header '${name}' is ${value.length} characters long; ids may have at most ${MAX_ID_LENGTH}`,
      );
    }
  }
  return problems.length > 0 ? problems : null;
}

/**
 * Checks the shape of a message before a transport accepts it: non-empty string ids within
 * {@link MAX_ID_LENGTH}, a string or null correlation id, a string body and string header values. Throws
 * `TransportError(InvalidArgument)` naming the field or header.
 */
export function assertTransportMessage(message: TransportMessage): void {
  if (message === null || typeof message !== 'object') {
    throw invalid(`TransportMessage must be an object, got ${describeValue(message)}`);
  }
  assertId('TransportMessage.sessionId', message.sessionId);
  assertId('TransportMessage.messageId', message.messageId);
  if (message.correlationId !== null)
    assertId('TransportMessage.correlationId', message.correlationId, 'or null');
  if (typeof message.body !== 'string') {
    throw invalid(`TransportMessage.body must be a string, got ${describeValue(message.body)}`);
  }
  const problems = headerProblems(message.headers);
  if (problems) throw invalid(`TransportMessage ${message.messageId}: ${problems.join('; ')}`);
}

function assertId(field: string, value: unknown, alternative = ''): void {
  if (typeof value !== 'string' || value.length === 0) {
    const suffix = alternative ? ` ${alternative}` : '';
    throw invalid(`${field} must be a non-empty string${suffix}, got ${describeValue(value)}`);
  }
  if (value.length > MAX_ID_LENGTH) {
    throw invalid(`${field} is ${value.length} characters long; ids may have at most ${MAX_ID_LENGTH}`);
  }
}

/** A short, safe description of a bad value for an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : 'a string';
  return `a ${typeof value}`;
}

function invalid(message: string): TransportError {
  return new TransportError(TransportErrorCode.InvalidArgument, message);
}
