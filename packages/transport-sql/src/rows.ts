import type {
  DeadLetteredMessage,
  Headers,
  ParkedMessage,
  PeekedMessage,
  ReceivedMessage,
  TransportMessage,
} from '@nimbus/core';
import type { Row } from './sql/database.js';

export function messageFromRow(row: Row): TransportMessage {
  return {
    messageId: String(row.message_id),
    sessionId: String(row.session_id),
    correlationId: row.correlation_id === null ? null : String(row.correlation_id),
    headers: JSON.parse(String(row.headers)) as Headers,
    body: String(row.body),
  };
}

/** The per-delivery token: the lease that holds the message plus which delivery this is. */
export function deliveryToken(leaseToken: string, deliveryCount: number): string {
  return `${leaseToken}:${deliveryCount}`;
}

export function receivedFromRow(row: Row, leaseToken: string): ReceivedMessage {
  const deliveryCount = Number(row.delivery_count);
  // Built in one literal (no spread of messageFromRow): this runs for every received message.
  return {
    messageId: String(row.message_id),
    sessionId: String(row.session_id),
    correlationId: row.correlation_id === null ? null : String(row.correlation_id),
    headers: JSON.parse(String(row.headers)) as Headers,
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
  return {
    ...messageFromRow(row),
    id: String(row.id),
    input: String(row.input),
    reason: String(row.reason),
    description: row.description === null ? null : String(row.description),
    deliveryCount: Number(row.delivery_count),
    deadLetteredAt: new Date(Number(row.dead_lettered_at)),
  };
}
