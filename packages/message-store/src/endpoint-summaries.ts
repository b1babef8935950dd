import { resolveOriginatingId } from './blocked-event-rules.js';
import { compositeEventId } from './composite-id.js';
import type {
  BlockedMessageEvent,
  EndpointState,
  EndpointStateCount,
  SessionStateCount,
} from './entities/endpoint-state.js';
import type { UnresolvedEvent } from './entities/unresolved-event.js';
import { ResolutionStatus } from './enums.js';

/*
 * The operator views' result shapes, built the same way by every provider from rows it has already
 * selected and ordered (newest update first).
 */

/** What the summaries need of a row: its identity and its status. */
export interface RowStatus {
  readonly eventId: string;
  readonly sessionId: string | null;
  readonly resolutionStatus: string;
}

/** Statuses that hold up a session: nothing later on it is processed while one of these is live. */
export const SESSION_BLOCKING_STATUSES: readonly ResolutionStatus[] = [
  ResolutionStatus.Pending,
  ResolutionStatus.Deferred,
];

/** Statuses listed by `getEndpointErrorList`. */
export const ERROR_LIST_STATUSES: readonly ResolutionStatus[] = [
  ResolutionStatus.Failed,
  ResolutionStatus.Deferred,
];

/** Composite ids of the rows in `status`, in the rows' order. */
export function compositeIdsWithStatus(rows: readonly RowStatus[], status: ResolutionStatus): string[] {
  return rows
    .filter((r) => r.resolutionStatus === status)
    .map((r) => compositeEventId(r.eventId, r.sessionId));
}

export function toBlockedMessageEvent(event: UnresolvedEvent): BlockedMessageEvent {
  return {
    originatingId: resolveOriginatingId(event.originatingMessageId, event.lastMessageId),
    eventId: event.eventId,
    status: event.resolutionStatus,
  };
}

export function endpointStateCount(
  endpointId: string,
  countOf: (status: ResolutionStatus) => number,
  eventTime: Date,
): EndpointStateCount {
  return {
    endpointId,
    pendingCount: countOf(ResolutionStatus.Pending),
    deferredCount: countOf(ResolutionStatus.Deferred),
    failedCount: countOf(ResolutionStatus.Failed),
    deadletterCount: countOf(ResolutionStatus.DeadLettered),
    unsupportedCount: countOf(ResolutionStatus.Unsupported),
    eventTime,
  };
}

/** `sessionRows`: the session's live rows, newest first. */
export function sessionStateCount(sessionId: string, sessionRows: readonly RowStatus[]): SessionStateCount {
  return {
    sessionId,
    pendingEvents: compositeIdsWithStatus(sessionRows, ResolutionStatus.Pending),
    deferredEvents: compositeIdsWithStatus(sessionRows, ResolutionStatus.Deferred),
  };
}

/** `events`: one page of the endpoint's actionable rows, newest first. */
export function endpointStatePage(
  endpointId: string,
  events: UnresolvedEvent[],
  continuationToken: string | null,
  eventTime: Date,
): EndpointState {
  return {
    endpointId,
    continuationToken,
    enrichedUnresolvedEvents: events,
    pendingEvents: compositeIdsWithStatus(events, ResolutionStatus.Pending),
    failedEvents: compositeIdsWithStatus(events, ResolutionStatus.Failed),
    deferredEvents: compositeIdsWithStatus(events, ResolutionStatus.Deferred),
    deadletteredEvents: compositeIdsWithStatus(events, ResolutionStatus.DeadLettered),
    unsupportedEvents: compositeIdsWithStatus(events, ResolutionStatus.Unsupported),
    eventTime,
  };
}
