import type { AmqpMessage, Entry } from '../broker/message.js';
import { longBuffer } from '../wire/encoding.js';
import { types } from './rhea.js';

/** The message as the SDK reads it on delivery or peek: 8-byte sequence number, enqueue and lock times, state. */
export function renderEntry(
  entry: Entry,
  lockedUntil: number | null,
  extra?: Record<string, unknown>,
): object {
  const annotations: Record<string, unknown> = {
    ...entry.message.message_annotations,
    'x-opt-sequence-number': types.wrap_long(longBuffer(entry.sequence)),
    'x-opt-enqueued-time': new Date(entry.enqueuedAt),
    ...extra,
  };
  if (lockedUntil !== null) annotations['x-opt-locked-until'] = new Date(lockedUntil);
  if (entry.state === 'deferred') annotations['x-opt-message-state'] = types.wrap_int(1);
  const { delivery_count: _ignored, ...message } = entry.message;
  return { ...message, delivery_count: entry.deliveryCount, message_annotations: annotations };
}

/** A scheduled message as peek shows it on a subscription it will reach (message state 2). */
export function renderScheduled(sequence: number, message: AmqpMessage, at: number): object {
  return {
    ...message,
    delivery_count: 0,
    message_annotations: {
      ...message.message_annotations,
      'x-opt-sequence-number': types.wrap_long(longBuffer(sequence)),
      'x-opt-enqueued-time': new Date(at),
      'x-opt-scheduled-enqueue-time': new Date(at),
      'x-opt-message-state': types.wrap_int(2),
    },
  };
}
