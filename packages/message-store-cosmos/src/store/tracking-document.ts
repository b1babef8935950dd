import { rowFailureSignature, type UnresolvedEvent } from '@nimbus/message-store';
import { trackingDocumentId } from './layout.js';
import type { RetentionStamp } from './retention-stamp.js';

export type RowVisibility = 'live' | 'removed' | 'archived';

/** A resolver row as stored in its endpoint container (dates as ISO-8601 strings). */
export interface TrackingDocument
  extends Omit<UnresolvedEvent, 'updatedAt' | 'enqueuedTimeUtc' | 'expectedBy' | 'retry'> {
  readonly id: string;
  readonly updatedAt: string;
  readonly enqueuedTimeUtc: string;
  readonly expectedBy: string | null;
  /** Absent on documents written before the retry state existed. */
  readonly retry?: { attempt: number; maxAttempts: number; nextAttemptAt: string } | null;
  readonly visibility: RowVisibility;
  /** Write order (see `CosmosStoreContext.nextSeq`): every "newest first" view sorts by it. */
  readonly seq: number;
  readonly ttl: number;
  readonly expiresAt: number | null;
  /** `rowFailureSignature` of a Failed or DeadLettered row, stamped at the write; null otherwise. */
  readonly failureSignature: string | null;
  readonly _etag?: string;
}

export function toTrackingDocument(
  event: UnresolvedEvent,
  visibility: RowVisibility,
  seq: number,
  stamp: RetentionStamp,
): TrackingDocument {
  return {
    ...event,
    id: trackingDocumentId(event.eventId, event.sessionId),
    updatedAt: event.updatedAt.toISOString(),
    enqueuedTimeUtc: event.enqueuedTimeUtc.toISOString(),
    expectedBy: event.expectedBy?.toISOString() ?? null,
    retry: event.retry && { ...event.retry, nextAttemptAt: event.retry.nextAttemptAt.toISOString() },
    visibility,
    seq,
    ttl: stamp.ttl,
    expiresAt: stamp.expiresAt,
    failureSignature: rowFailureSignature(event),
  };
}

export function fromTrackingDocument(doc: TrackingDocument): UnresolvedEvent {
  return {
    updatedAt: new Date(doc.updatedAt),
    enqueuedTimeUtc: new Date(doc.enqueuedTimeUtc),
    eventId: doc.eventId,
    sessionId: doc.sessionId,
    correlationId: doc.correlationId,
    resolutionStatus: doc.resolutionStatus,
    endpointRole: doc.endpointRole,
    endpointId: doc.endpointId,
    retryCount: doc.retryCount,
    retryLimit: doc.retryLimit,
    retry: doc.retry ? { ...doc.retry, nextAttemptAt: new Date(doc.retry.nextAttemptAt) } : null,
    messageType: doc.messageType,
    deadLetterReason: doc.deadLetterReason,
    deadLetterErrorDescription: doc.deadLetterErrorDescription,
    lastMessageId: doc.lastMessageId,
    originatingMessageId: doc.originatingMessageId,
    parentMessageId: doc.parentMessageId,
    reason: doc.reason,
    originatingFrom: doc.originatingFrom,
    eventTypeId: doc.eventTypeId,
    to: doc.to,
    from: doc.from,
    messageContent: doc.messageContent,
    queueTimeMs: doc.queueTimeMs,
    processingTimeMs: doc.processingTimeMs,
    pendingSubStatus: doc.pendingSubStatus,
    handoffReason: doc.handoffReason,
    externalJobId: doc.externalJobId,
    expectedBy: doc.expectedBy === null ? null : new Date(doc.expectedBy),
    cloudEventId: doc.cloudEventId,
    cloudEventSource: doc.cloudEventSource,
    cloudEventType: doc.cloudEventType,
    cloudEventSubject: doc.cloudEventSubject,
  };
}

/** The columns every row query selects: the document without Cosmos's system fields. */
export const LIVE = "c.visibility = 'live'";
