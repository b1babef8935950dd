import type { Clock, MessageEnvelope, ReceivedMessage } from '@nimbus/core';
import {
  handoffProcessingTimeMs,
  type MessageEntityWrite,
  type PlainTracking,
  plainStatusWrite,
  plainTracking,
  type StatusWrite,
} from '@nimbus/message-store';
import type { ResolverStore } from './resolver-store.js';

/** A received message whose whole projection is one history record and one status write. */
export interface PlainProjection extends PlainTracking {
  readonly message: ReceivedMessage;
  readonly envelope: MessageEnvelope;
  readonly record: MessageEntityWrite;
}

/**
 * Whether the message can join a batch write (`plainTracking` of `@nimbus/message-store`, the one projection a
 * co-located transport applies too). Everything else is projected on its own, in order.
 */
export function plainProjection(message: ReceivedMessage, envelope: MessageEnvelope): PlainProjection | null {
  const tracking = plainTracking({ envelope, headers: message.headers, enqueuedAt: message.enqueuedAt });
  return tracking === null ? null : { ...tracking, message, envelope };
}

/** The status writes of a run, in order (handoff timing reads what earlier, separately written messages left). */
export async function statusWritesOf(
  run: readonly PlainProjection[],
  store: ResolverStore,
  clock: Clock,
): Promise<StatusWrite[]> {
  const writes: StatusWrite[] = [];
  for (const projection of run) {
    const processingTimeMs = await handoffProcessingTimeMs(store, projection.envelope, clock);
    writes.push(plainStatusWrite(projection, projection.envelope, processingTimeMs));
  }
  return writes;
}
