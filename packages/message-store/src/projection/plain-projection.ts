import { Addresses, HEARTBEAT_EVENT_TYPE_ID, type MessageEnvelope, MessageType } from '@nimbus/core';
import type { StatusWrite } from '../contracts/tracking-requests.js';
import type { MessageEntityWrite } from '../entities/message-entity.js';
import { determineEndpoint } from './endpoint.js';
import { hasStatus, isHistoryOnly, resultingStatus, retryStateOf } from './status-mapping.js';
import { historyRecord, type ResolverInput, stateRow } from './tracking-records.js';

// THE projection of a plain message: the mapping from one bus message to its history record and its guarded
// status write. The Resolver applies it to what it receives; a co-located projection (colocated.ts) applies it
// inside the bus's own transaction. Both call these functions, so both write the same rows.

/** A message whose whole projection is one history record and one status write. */
export interface PlainTracking {
  readonly record: MessageEntityWrite;
  readonly endpointId: string;
}

/** Heartbeat probes and their answers (the Resolver's heartbeat bookkeeping, never a tracked event). */
export function isHeartbeatTraffic(message: Pick<MessageEnvelope, 'eventTypeId' | 'content'>): boolean {
  const id = message.eventTypeId || message.content.eventContent?.eventTypeId;
  return !!id && id.toLowerCase() === HEARTBEAT_EVENT_TYPE_ID.toLowerCase();
}

/**
 * The history record and endpoint of a message that has a status and needs nothing else (no audit, no
 * heartbeat bookkeeping, no history-only handling); null for anything else, which is projected on its own.
 */
export function plainTracking(input: ResolverInput): PlainTracking | null {
  const envelope = input.envelope;
  if (isHeartbeatTraffic(envelope) || isHistoryOnly(envelope) || !hasStatus(envelope)) return null;
  if (envelope.messageType === MessageType.RetryRequest) return null;
  const endpoint = determineEndpoint(envelope);
  return { record: historyRecord(input, endpoint), endpointId: endpoint.endpointId };
}

/** The guarded status write of a plain message; `processingTimeMs` overrides the handler's (handoff timing). */
export function plainStatusWrite(
  tracking: PlainTracking,
  envelope: Pick<
    MessageEnvelope,
    'messageType' | 'deadLetterErrorDescription' | 'sessionId' | 'retryCount' | 'retryLimit' | 'nextRetryAt'
  >,
  processingTimeMs: number | null = null,
): StatusWrite {
  const { record, endpointId } = tracking;
  return {
    key: { endpointId, eventId: record.eventId, sessionId: envelope.sessionId },
    status: resultingStatus(envelope),
    content: stateRow(record, processingTimeMs ?? record.processingTimeMs ?? null, retryStateOf(envelope)),
  };
}

/**
 * Whether the status of this message may depend on what the store already holds (the outcome of a handed-off
 * event reports the time since the original request, read from its history): only the Manager's settlements.
 */
export function mayNeedStoreReads(
  envelope: Pick<MessageEnvelope, 'messageType' | 'originatingFrom'>,
): boolean {
  const outcome =
    envelope.messageType === MessageType.ResolutionResponse ||
    envelope.messageType === MessageType.ErrorResponse;
  return outcome && envelope.originatingFrom === Addresses.manager;
}
