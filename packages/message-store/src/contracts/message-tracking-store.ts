import type {
  BlockedMessageEvent,
  BlockedMessageEventPage,
  EndpointState,
  EndpointStateCount,
  SessionStateCount,
} from '../entities/endpoint-state.js';
import type { FailureGroup, FailureGroupRequest } from '../entities/failure-group.js';
import type { AuditSearchResult, MessageSearchResult, SearchResponse } from '../entities/filters.js';
import type { EventReport, MessageAuditEntity } from '../entities/message-audit.js';
import type { MessageEntity, MessageEntityWrite } from '../entities/message-entity.js';
import type { UnresolvedEvent } from '../entities/unresolved-event.js';
import type { RetentionSweepResult } from '../retention.js';
import type {
  AuditSearchRequest,
  AuditWrite,
  EndpointEventRef,
  EndpointEventsRef,
  EndpointPageRequest,
  EventIdOnEndpoint,
  EventIdsOnEndpoint,
  EventReportWrite,
  EventSearchRequest,
  HandoffJobRef,
  MessageRef,
  MessageSearchRequest,
  NextHandoffRequest,
  PendingCompletion,
  PurgeScope,
  SessionPageRequest,
  SessionRef,
  SessionsRef,
  StatusLookup,
  StatusWrite,
  TrackedEventKey,
  TrackingBatch,
  TrackingBatchResult,
} from './tracking-requests.js';

/*
 * The resolver store contract (v2), one interface per slice; each provider implements each slice as one
 * class or object. Shared rules (pinned by the conformance suite):
 * - Every single-row lookup answers `null` on a miss — including a row in another status or session,
 *   or one that was removed or archived. Errors mean infrastructure failure only.
 * - Optional strings round-trip exactly: `null` stays `null`, `""` stays `""`.
 * - Removed and archived rows are invisible to every read, count and list until a later status write
 *   revives them; retention deletes them for good.
 * - A reserved endpoint id (`RESERVED_STORE_ENDPOINT_IDS`) is refused by every write that can create data
 *   for an endpoint.
 */

/**
 * Status writes. Each upserts the row `key` with `status`; the store stamps `updatedAt` from its clock
 * and the row's expiry from the retention in force at this write. Every write passes the stale-write guard
 * (`decideStatusWrite`), evaluated atomically against the row being replaced. True when written, false
 * ONLY when the guard refused (the row already holds a later outcome; do not retry). Failures throw.
 */
export interface TrackingStatusWrites {
  writeStatus(write: StatusWrite): Promise<boolean>;
  /**
   * Many status writes in one atomic step, guarded per row: a refusal of one row leaves the others
   * written. Several writes of one key apply in the given order. One result per write, in order.
   */
  writeStatuses(writes: readonly StatusWrite[]): Promise<boolean[]>;
  /**
   * History records and status writes together, in one transaction where the provider has them (the
   * Resolver's unit of work for a receive batch). Same per-entry rules as `storeMessages`/`writeStatuses`.
   */
  writeBatch(batch: TrackingBatch): Promise<TrackingBatchResult>;
  /**
   * The one conditional terminal write (operator reconcile). Replaces the row with a Completed projection
   * only if it exists, is Pending, is not removed, and its `lastMessageId` equals `expectedLastMessageId`.
   * True only when it replaced the row; false for every refusal including a lost race.
   */
  tryCompletePending(completion: PendingCompletion): Promise<boolean>;
}

/** Soft deletes that take rows out of the live views. */
export interface TrackingRowLifecycle {
  /** True when a live row was affected. */
  removeMessage(key: TrackedEventKey): Promise<boolean>;
  /** Soft-deletes every row of the session, or of the endpoint; true when any was affected. */
  purgeMessages(scope: PurgeScope): Promise<boolean>;
  /** Takes the row out of the live views (kept for the archive retention). Missing row: no-op. */
  archiveFailedEvent(key: TrackedEventKey): Promise<void>;
}

/** Single-row and small-set reads of live resolver rows. */
export interface TrackingEventLookups {
  /** The live row `key` if it is in `status`. */
  getEventInStatus(lookup: StatusLookup): Promise<UnresolvedEvent | null>;
  /** The most recently updated live row of the event across all sessions. */
  getEvent(ref: EndpointEventRef): Promise<UnresolvedEvent | null>;
  /** `id` is the composite id `{eventId}_{sessionId}`. */
  getEventById(ref: EventIdOnEndpoint): Promise<UnresolvedEvent | null>;
  /** Accepts composite ids and bare event ids; an empty input gives an empty list. */
  getEventsByIds(ref: EventIdsOnEndpoint): Promise<UnresolvedEvent[]>;
  /** Every Completed row on the endpoint (Skipped rows are not included). */
  getCompletedEventsOnEndpoint(endpointId: string): Promise<UnresolvedEvent[]>;
  /** The Pending row with sub-status Handoff and this job id; null/"" job id gives null. */
  getPendingHandoffByExternalJobId(ref: HandoffJobRef): Promise<UnresolvedEvent | null>;
  /** Oldest (by `enqueuedTimeUtc`) Pending+Handoff row, optionally limited to event types. */
  getNextPendingHandoffEvent(request: NextHandoffRequest): Promise<UnresolvedEvent | null>;
}

/** The filtered, paged search over live resolver rows. */
export interface TrackingEventSearch {
  /** Newest `updatedAt` first; terminal rows included; `eventJson` stripped. */
  getEventsByFilter(request: EventSearchRequest): Promise<SearchResponse>;
}

/**
 * Failed and dead-lettered rows grouped by failure signature (`rowFailureSignature`, stamped at the status
 * write), counted by the store so the view costs the same at a million rows as at ten.
 */
export interface TrackingFailureGroups {
  /** Groups of live Failed and DeadLettered rows, newest `lastSeen` first. */
  getFailureGroups(request: FailureGroupRequest): Promise<FailureGroup[]>;
}

/** Operator views over one endpoint's live rows: counts, session state, paging, blocked sessions. */
export interface TrackingEndpointViews {
  downloadEndpointStateCount(endpointId: string): Promise<EndpointStateCount>;
  downloadEndpointSessionStateCount(ref: SessionRef): Promise<SessionStateCount>;
  /** One result per requested session, including sessions without rows. */
  downloadEndpointSessionStateCountBatch(ref: SessionsRef): Promise<SessionStateCount[]>;
  /** One page of actionable rows, newest `updatedAt` first; page size via `PaginationLimits.resolve`. */
  downloadEndpointStatePaging(request: EndpointPageRequest): Promise<EndpointState>;
  /** The session's Pending and Deferred rows, newest first; take via `PaginationLimits`. */
  getBlockedEventsOnSession(request: SessionPageRequest): Promise<BlockedMessageEventPage>;
  /** Every Pending row on the endpoint, whatever the session (name kept from the original). */
  getPendingEventsOnSession(endpointId: string): Promise<UnresolvedEvent[]>;
  /** Every live row whose role is Publisher. */
  getInvalidEventsOnSession(endpointId: string): Promise<BlockedMessageEvent[]>;
  /** Composite ids of live Failed and Deferred rows, formatted by `formatEndpointErrorList`. */
  getEndpointErrorList(endpointId: string): Promise<string>;
}

/** The per-message history and its search. */
export interface TrackingMessageHistory {
  /** Appends a history record; first write wins per (eventId, messageId). True when it was new. */
  storeMessage(message: MessageEntityWrite): Promise<boolean>;
  /** Many history records in one step; one result per record, in order. */
  storeMessages(messages: readonly MessageEntityWrite[]): Promise<boolean[]>;
  getMessage(ref: MessageRef): Promise<MessageEntity | null>;
  /** Every history record of the event, `enqueuedTimeUtc` ascending. */
  getEventHistory(eventId: string): Promise<MessageEntity[]>;
  /** Newest EventRequest or ResubmissionRequest with a non-empty `eventJson`; null when none. */
  getLatestEventRequestMessage(eventId: string): Promise<MessageEntity | null>;
  /** Newest message of the event on the endpoint that carries error content. */
  getFailedMessage(ref: EndpointEventRef): Promise<MessageEntity | null>;
  /** Newest message of the event on the endpoint, any type. */
  getDeadletteredMessage(ref: EndpointEventRef): Promise<MessageEntity | null>;
  /** Hard delete; a missing record is ignored. */
  removeStoredMessage(ref: MessageRef): Promise<void>;
  /** History search, newest `enqueuedTimeUtc` first; `eventJson` stripped. */
  searchMessages(request: MessageSearchRequest): Promise<MessageSearchResult>;
}

/** The audit trail, its search, resubmit counts and the per-event "reported" markers. */
export interface TrackingAuditsAndReports {
  storeMessageAudit(write: AuditWrite): Promise<void>;
  /** Every audit row of the event, `auditTimestamp` ascending. */
  getMessageAudits(eventId: string): Promise<MessageAuditEntity[]>;
  /** Audit search, newest first. */
  searchAudits(request: AuditSearchRequest): Promise<AuditSearchResult>;
  /** Per event: Resubmit + ResubmitWithChanges audits on the endpoint that were not denied. Zero counts are absent. */
  getResubmitCounts(ref: EndpointEventsRef): Promise<ReadonlyMap<string, number>>;
  /** Upserts the marker for the (endpointId, eventId) pair; clearing drops the ticket id. */
  setEventReport(report: EventReportWrite): Promise<void>;
  getEventReports(ref: EndpointEventsRef): Promise<ReadonlyMap<string, EventReport>>;
}

/** Deleting what has outlived its retention. */
export interface TrackingRetention {
  /**
   * Deletes every row whose expiry (stamped at its last write) is at or before `now` (default: the
   * store clock), and history and audits past the fixed retention table.
   */
  sweepExpired(now?: Date): Promise<RetentionSweepResult>;
}

/** Resolver state per (endpointId, eventId, sessionId), the per-message history, audits and reports. */
export interface MessageTrackingStore
  extends TrackingStatusWrites,
    TrackingRowLifecycle,
    TrackingEventLookups,
    TrackingEventSearch,
    TrackingFailureGroups,
    TrackingEndpointViews,
    TrackingMessageHistory,
    TrackingAuditsAndReports,
    TrackingRetention {}
