import {
  Addresses,
  Header,
  type PublishRequest,
  type ReceivedMessage,
  type TransportMessage,
} from '@nimbus/core';

/**
 * Carries a request's own `To` while its redelivery copy is addressed to the Resolver; the Resolver restores
 * it before reading the message, so the copy is recorded against the same endpoint as the original.
 */
export const RESOLVER_ORIGINAL_TO_HEADER = 'ResolverOriginalTo';

/** The message as the Resolver should read it: `To` restored when this is a redelivery copy. */
export function restoreOriginalAddress(message: TransportMessage): TransportMessage {
  const original = message.headers[RESOLVER_ORIGINAL_TO_HEADER];
  if (original === undefined) return message;
  const { [RESOLVER_ORIGINAL_TO_HEADER]: _, ...headers } = message.headers;
  return { ...message, headers: { ...headers, [Header.To]: original } };
}

/**
 * A copy of `message` to come back to the Resolver input at `at` with the attempt count raised.
 * The message id is kept, so the history write stays idempotent and the stale-write guard sees
 * the same message; `From` is re-stamped by routing from the source, which is the original `From`.
 */
export function redeliveryOf(message: ReceivedMessage, nextAttempt: number, at: Date): PublishRequest {
  const to = message.headers[Header.To];
  const from = message.headers[Header.From] ?? Addresses.resolver;
  const headers: Record<string, string> = {
    ...message.headers,
    [Header.ThrottleRetryCount]: String(nextAttempt),
    [Header.To]: Addresses.resolver,
  };
  if (to !== undefined && to !== Addresses.resolver && headers[RESOLVER_ORIGINAL_TO_HEADER] === undefined) {
    headers[RESOLVER_ORIGINAL_TO_HEADER] = to;
  }
  const copy: TransportMessage = {
    messageId: message.messageId,
    sessionId: message.sessionId,
    correlationId: message.correlationId,
    headers,
    body: message.body,
  };
  return { source: from, messages: [copy], enqueueAt: at };
}
