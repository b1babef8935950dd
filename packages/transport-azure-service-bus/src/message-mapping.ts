import type { ServiceBusMessage, ServiceBusReceivedMessage } from '@azure/service-bus';
import type { ReceivedMessage, TransportMessage } from '@nimbus/core';
import { BROKER_DEAD_LETTER_PROPERTIES, TRANSPORT_PROPERTIES } from './names.js';

/** The Service Bus message for a delivery: headers as application properties, the body as UTF-8 bytes. */
export function toServiceBus(
  message: TransportMessage,
  properties: Record<string, string | number>,
): ServiceBusMessage {
  return {
    messageId: message.messageId,
    sessionId: message.sessionId,
    ...(message.correlationId !== null ? { correlationId: message.correlationId } : {}),
    contentType: 'application/json',
    body: Buffer.from(message.body, 'utf8'),
    applicationProperties: { ...message.headers, ...properties },
  };
}

function bodyText(body: unknown): string {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Where a message was read: only a dead-letter queue's copies carry the broker's dead-letter properties. */
export type ReadFrom = 'queue' | 'dead-letter queue';

export function headersOf(
  message: ServiceBusReceivedMessage,
  from: ReadFrom = 'queue',
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.applicationProperties ?? {})) {
    if (TRANSPORT_PROPERTIES.has(name) || value === null || value === undefined) continue;
    if (from === 'dead-letter queue' && BROKER_DEAD_LETTER_PROPERTIES.has(name)) continue;
    headers[name] = String(value);
  }
  return headers;
}

export function fromServiceBus(
  message: ServiceBusReceivedMessage,
  from: ReadFrom = 'queue',
): TransportMessage {
  return {
    messageId: String(message.messageId ?? ''),
    sessionId: message.sessionId ?? '',
    correlationId: message.correlationId === undefined ? null : String(message.correlationId),
    headers: headersOf(message, from),
    body: bodyText(message.body),
  };
}

export function sequenceOf(message: ServiceBusReceivedMessage): number {
  return message.sequenceNumber ? message.sequenceNumber.toNumber() : 0;
}

/** A received message in NimBus terms; Service Bus counts earlier deliveries, NimBus counts this one too. */
export function toReceived(input: string, message: ServiceBusReceivedMessage): ReceivedMessage {
  return {
    ...fromServiceBus(message),
    input,
    sequence: sequenceOf(message),
    deliveryCount: (message.deliveryCount ?? 0) + 1,
    enqueuedAt: message.enqueuedTimeUtc ?? new Date(),
    lockToken: message.lockToken ?? '',
  };
}
