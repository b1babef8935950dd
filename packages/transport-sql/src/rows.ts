import type {
  DeadLetteredMessage,
  Headers,
  ParkedMessage,
  PeekedMessage,
  ReceivedMessage,
  TransportMessage,
} from '@nimbus/core';
import { headerProblems } from '@nimbus/core/transport-spi';
import type { Row } from './sql/database.js';

/** The dead-letter reason of a message the transport cannot hand over (headers or size). */
export const UNREADABLE_MESSAGE_REASON = 'UnreadableMessage';

/** Parses stored headers; a problem text instead when they are not a JSON object of strings. */
export function parseHeaders(text: unknown): Headers | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(text));
  } catch (error) {
    return `headers are not valid JSON (${(error as Error).message})`;
  }
  const problems = headerProblems(parsed);
  return problems ? problems.join('; ') : (parsed as Headers);
}

/** Headers for operator views: unreadable ones show as none (the dead letter's description says why). */
function viewHeaders(text: unknown): Headers {
  const headers = parseHeaders(text);
  return typeof headers === 'string' ? {} : headers;
}

export function messageFromRow(row: Row): TransportMessage {
  return {
    messageId: String(row.message_id),
    sessionId: String(row.session_id),
    correlationId: row.correlation_id === null ? null : String(row.correlation_id),
    headers: viewHeaders(row.headers),
    body: String(row.body ?? ''),
  };
}

/** The per-delivery token: the lease that holds the message plus which delivery this is. */
export function deliveryToken(leaseToken: string, deliveryCount: number): string {
  return `${leaseToken}:${deliveryCount}`;
}

/**
 * A received row as a message, or the problem that makes it unreadable: headers that are not a JSON object of
 * strings, or a body the receive statement withheld because the message is larger than `maxBytes`.
 */
export function readableReceivedFromRow(
  row: Row,
  leaseToken: string,
  maxBytes: number,
): ReceivedMessage | string {
  if (row.body === null || row.body === undefined) {
    return `the message is ${Number(row.stored_bytes)} bytes, more than this consumer accepts (maxBatchBytes ${maxBytes})`;
  }
  const headers = parseHeaders(row.headers);
  if (typeof headers === 'string') return headers;
  return receivedFromRow(row, leaseToken, headers);
}

export function receivedFromRow(row: Row, leaseToken: string, parsed?: Headers): ReceivedMessage {
  const deliveryCount = Number(row.delivery_count);
  // Built in one literal (no spread of messageFromRow): this runs for every received message.
  return {
    messageId: String(row.message_id),
    sessionId: String(row.session_id),
    correlationId: row.correlation_id === null ? null : String(row.correlation_id),
    headers: parsed ?? (JSON.parse(String(row.headers)) as Headers),
    body: String(row.body),
    input: String(row.input),
    sequence: Number(row.seq),
    deliveryCount,
    enqueuedAt: new Date(Number(row.enqueued_at)),
    lockToken: deliveryToken(leaseToken, deliveryCount),
  };
}

export function peekedFromRow(row: Row): PeekedMessage {
  return {
    ...messageFromRow(row),
    input: String(row.input),
    sequence: Number(row.seq),
    deliveryCount: Number(row.delivery_count),
    enqueuedAt: new Date(Number(row.enqueued_at)),
    visibleAt: new Date(Number(row.visible_at)),
  };
}

export function parkedFromRow(row: Row): ParkedMessage {
  return {
    sequence: Number(row.seq),
    message: messageFromRow(row),
    parkedAt: new Date(Number(row.parked_at)),
  };
}

export function deadLetterFromRow(row: Row): DeadLetteredMessage {
  const headers = parseHeaders(row.headers);
  return {
    ...messageFromRow(row),
    ...(typeof headers === 'string' ? { unreadable: headers } : {}),
    id: String(row.id),
    input: String(row.input),
    reason: String(row.reason),
    description: row.description === null ? null : String(row.description),
    deliveryCount: Number(row.delivery_count),
    deadLetteredAt: new Date(Number(row.dead_lettered_at)),
  };
}
