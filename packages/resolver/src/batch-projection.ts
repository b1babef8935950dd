import { type Clock, type MessageEnvelope, MessageType, type ReceivedMessage } from '@nimbus/core';
import type { MessageEntityWrite, StatusWrite } from '@nimbus/message-store';
import { determineEndpoint } from './endpoint.js';
import { handoffProcessingTimeMs } from './handoff-timing.js';
import { isHeartbeatTraffic } from './heartbeat/heartbeat-traffic.js';
import type { ResolverStore } from './resolver-store.js';
import { hasStatus, isHistoryOnly, resultingStatus } from './status-mapping.js';
import { historyRecord, stateRow } from './tracking-records.js';

/** A message whose whole projection is one history record and one status write. */
export interface PlainProjection {
  readonly message: ReceivedMessage;
  readonly envelope: MessageEnvelope;
  readonly record: MessageEntityWrite;
  readonly endpointId: string;
}

/**
 * Whether the message can join a batch write: it has a status and needs nothing else (no audit, no
 * heartbeat bookkeeping, no history-only handling). Everything else is projected on its own, in order.
 */
export function plainProjection(message: ReceivedMessage, envelope: MessageEnvelope): PlainProjection | null {
  if (isHeartbeatTraffic(envelope) || isHistoryOnly(envelope) || !hasStatus(envelope)) return null;
  if (envelope.messageType === MessageType.RetryRequest) return null;
  const endpoint = determineEndpoint(envelope);
  const input = { envelope, headers: message.headers, enqueuedAt: message.enqueuedAt };
  return { message, envelope, record: historyRecord(input, endpoint), endpointId: endpoint.endpointId };
}

/** The status writes of a run, in order (handoff timing reads what earlier, separately written messages left). */
export async function statusWritesOf(
  run: readonly PlainProjection[],
  store: ResolverStore,
  clock: Clock,
): Promise<StatusWrite[]> {
  const writes: StatusWrite[] = [];
  for (const { envelope, record, endpointId } of run) {
    const processingTimeMs = await handoffProcessingTimeMs(store, envelope, clock);
    writes.push({
      key: { endpointId, eventId: record.eventId, sessionId: envelope.sessionId },
      status: resultingStatus(envelope),
      content: stateRow(record, processingTimeMs ?? record.processingTimeMs ?? null),
    });
  }
  return writes;
}
