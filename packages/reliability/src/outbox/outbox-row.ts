import { Header, type TransportMessage, uuidv7 } from '@nimbus/core';
import type { OutboxEntry, OutboxMessage } from './outbox-store.js';

type Derived = Pick<
  OutboxMessage,
  | 'source'
  | 'message'
  | 'messageId'
  | 'destination'
  | 'eventTypeId'
  | 'sessionId'
  | 'correlationId'
  | 'traceParent'
  | 'traceState'
>;

/** The searchable columns derived from the message itself. */
export function derivedFields(source: string, message: TransportMessage): Derived {
  return {
    source,
    message,
    messageId: message.messageId,
    destination: message.headers[Header.To] ?? null,
    eventTypeId: message.headers[Header.EventTypeId] ?? null,
    sessionId: message.sessionId,
    correlationId: message.correlationId,
    traceParent: message.headers[Header.TraceParent] ?? null,
    traceState: message.headers[Header.TraceState] ?? null,
  };
}

/** Builds the row for an entry stored at time `now`. */
export function outboxMessageOf(entry: OutboxEntry, now: number): OutboxMessage {
  return {
    id: uuidv7(now),
    ...derivedFields(entry.source, entry.message),
    enqueueAt: entry.enqueueAt ? new Date(entry.enqueueAt) : null,
    createdAt: new Date(now),
    dispatchedAt: null,
  };
}
