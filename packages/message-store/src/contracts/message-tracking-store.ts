import type {
  BlockedMessageEvent,
  BlockedMessageEventPage,
  EndpointState,
  EndpointStateCount,
  SessionStateCount,
} from '../entities/endpoint-state.js';
import type {
  AuditFilter,
  AuditSearchResult,
  EventFilter,
  MessageFilter,
  MessageSearchResult,
  SearchResponse,
} from '../entities/filters.js';
import type { EventReport, MessageAuditEntity, MessageAuditWrite } from '../entities/message-audit.js';
import type { MessageEntity, MessageEntityWrite } from '../entities/message-entity.js';
import type { UnresolvedEvent, UnresolvedEventWrite } from '../entities/unresolved-event.js';
import type { RetentionSweepResult } from '../retention.js';

/**
 * Resolver state per (endpointId, eventId, sessionId), the per-message history, the audit trail,
 * search and event reports.
 *
 * Shared rules (pinned by the conformance suite):
 * - Every single-row lookup answers `null` on a miss — including a row in another status or session,
 *   or one that was removed or archived. Errors mean infrastructure failure only.
 * - Optional strings round-trip exactly: `null` stays `null`, `""` stays `""`.
 * - Removed and archived rows are invisible to every read, count and list until a later status write
 *   revives them; retention deletes them for good.
 * - Note the argument order: writes take `(eventId, sessionId, endpointId)`, lookups `endpointId` first.
 */
export interface MessageTrackingStore {
  /**
   * Status writes. Each upserts the row with the status the method names; the store stamps
   * `updatedAt` from its clock and restarts the row's retention window.
   * Pending and Deferred writes pass through the stale-write guard (`decideStatusWrite`), evaluated
   * atomically against the row being replaced. Returns true when written, false ONLY when the guard
   * refused (the row already holds a later outcome; do not retry). Provider failures throw.
   */
  uploadPendingMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadDeferredMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadFailedMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadDeadletteredMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadUnsupportedMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadSkippedMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;
  uploadCompletedMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;

  /**
   * The one conditional terminal write (operator reconcile). Replaces the row with a Completed
   * projection only if it exists, is Pending, is not removed, and its `lastMessageId` equals
   * `expectedLastMessageId` (exact comparison; null matches null). True only when it replaced the row;
   * false for every refusal including a lost race. Atomic: of concurrent callers at most one wins.
   */
  tryCompletePendingMessage(
    eventId: string,
    sessionId: string,
    endpointId: string,
    expectedLastMessageId: string | null,
    content: UnresolvedEventWrite,
  ): Promise<boolean>;

  getPendingEvent(endpointId: string, eventId: string, sessionId: string): Promise<UnresolvedEvent | null>;
  getFailedEvent(endpointId: string, eventId: string, sessionId: string): Promise<UnresolvedEvent | null>;
  getDeferredEvent(endpointId: string, eventId: string, sessionId: string): Promise<UnresolvedEvent | null>;
  getDeadletteredEvent(
    endpointId: string,
    eventId: string,
    sessionId: string,
  ): Promise<UnresolvedEvent | null>;
  getUnsupportedEvent(
    endpointId: string,
    eventId: string,
    sessionId: string,
  ): Promise<UnresolvedEvent | null>;
  /** The most recently updated row of the event across all sessions. */
  getEvent(endpointId: string, eventId: string): Promise<UnresolvedEvent | null>;
  /** `id` is the composite id `{eventId}_{sessionId}`. */
  getEventById(endpointId: string, id: string): Promise<UnresolvedEvent | null>;
  /** Accepts composite ids and bare event ids; an empty input gives an empty list. */
  getEventsByIds(endpointId: string, ids: readonly string[]): Promise<UnresolvedEvent[]>;
  /** Every Completed row on the endpoint (Skipped rows are not included). */
  getCompletedEventsOnEndpoint(endpointId: string): Promise<UnresolvedEvent[]>;
  /** The Pending row with sub-status Handoff and this job id; null/"" job id gives null. */
  getPendingHandoffByExternalJobId(
    endpointId: string,
    externalJobId: string | null,
  ): Promise<UnresolvedEvent | null>;
  /** Oldest (by `enqueuedTimeUtc`) Pending+Handoff row, optionally limited to event types (empty = any). */
  getNextPendingHandoffEvent(
    endpointId: string,
    eventTypeIds?: readonly string[] | null,
  ): Promise<UnresolvedEvent | null>;

  /** Newest `updatedAt` first; terminal rows included; `eventJson` stripped. */
  getEventsByFilter(
    filter: EventFilter,
    continuationToken: string | null,
    maxSearchItemsCount: number,
  ): Promise<SearchResponse>;
  /** History search, newest `enqueuedTimeUtc` first; `eventJson` stripped. */
  searchMessages(
    filter: MessageFilter,
    continuationToken: string | null,
    maxItemCount: number,
  ): Promise<MessageSearchResult>;
  /** Audit search, newest first. */
  searchAudits(
    filter: AuditFilter,
    continuationToken: string | null,
    maxItemCount: number,
  ): Promise<AuditSearchResult>;

  downloadEndpointStateCount(endpointId: string): Promise<EndpointStateCount>;
  downloadEndpointSessionStateCount(endpointId: string, sessionId: string): Promise<SessionStateCount>;
  /** One result per requested session, including sessions without rows. */
  downloadEndpointSessionStateCountBatch(
    endpointId: string,
    sessionIds: readonly string[],
  ): Promise<SessionStateCount[]>;
  /** One page of actionable rows, newest `updatedAt` first; page size via `PaginationLimits.resolve`. */
  downloadEndpointStatePaging(
    endpointId: string,
    pageSize: number,
    continuationToken: string | null,
  ): Promise<EndpointState>;
  /** The session's Pending and Deferred rows, newest first; negative skip is 0; take via `PaginationLimits`. */
  getBlockedEventsOnSession(
    endpointId: string,
    sessionId: string,
    skip: number,
    take: number,
  ): Promise<BlockedMessageEventPage>;
  /** Every Pending row on the endpoint, whatever the session (name kept from the original). */
  getPendingEventsOnSession(endpointId: string): Promise<UnresolvedEvent[]>;
  /** Every live row whose role is Publisher. */
  getInvalidEventsOnSession(endpointId: string): Promise<BlockedMessageEvent[]>;

  /** Soft-deletes one row; true when a live row was affected. */
  removeMessage(eventId: string, sessionId: string, endpointId: string): Promise<boolean>;
  /** Soft-deletes every row of the session, or of the endpoint when no session is given; true when any was affected. */
  purgeMessages(endpointId: string, sessionId?: string): Promise<boolean>;
  /** Takes the row out of the live views (kept for the archive retention). Missing row: no-op. */
  archiveFailedEvent(eventId: string, sessionId: string, endpointId: string): Promise<void>;

  /** Appends a history record; first write wins per (eventId, messageId). True when stored, false when it already existed. */
  storeMessage(message: MessageEntityWrite): Promise<boolean>;
  getMessage(eventId: string, messageId: string): Promise<MessageEntity | null>;
  /** Every history record of the event, `enqueuedTimeUtc` ascending. */
  getEventHistory(eventId: string): Promise<MessageEntity[]>;
  /** Newest EventRequest or ResubmissionRequest with a non-empty `eventJson`; null when none. */
  getLatestEventRequestMessage(eventId: string): Promise<MessageEntity | null>;
  /** Newest message of the event on the endpoint that carries error content. */
  getFailedMessage(eventId: string, endpointId: string): Promise<MessageEntity | null>;
  /** Newest message of the event on the endpoint, any type. */
  getDeadletteredMessage(eventId: string, endpointId: string): Promise<MessageEntity | null>;
  /** Hard delete; a missing record is ignored. */
  removeStoredMessage(eventId: string, messageId: string): Promise<void>;

  /** Appends an audit row; `endpointId` / `eventTypeId` are stored alongside (and fill the entity's null endpointId). */
  storeMessageAudit(
    eventId: string,
    audit: MessageAuditWrite,
    endpointId?: string | null,
    eventTypeId?: string | null,
  ): Promise<void>;
  /** Every audit row of the event, `auditTimestamp` ascending. */
  getMessageAudits(eventId: string): Promise<MessageAuditEntity[]>;
  /** Per event: Resubmit + ResubmitWithChanges audits on the endpoint that were not denied. Zero counts are absent. */
  getResubmitCounts(endpointId: string, eventIds: readonly string[]): Promise<ReadonlyMap<string, number>>;

  /** Upserts the marker for the (endpointId, eventId) pair; clearing drops the ticket id. */
  setEventReport(
    endpointId: string,
    eventId: string,
    isReported: boolean,
    reportedBy: string | null,
    ticketId: string | null,
  ): Promise<void>;
  getEventReports(endpointId: string, eventIds: readonly string[]): Promise<ReadonlyMap<string, EventReport>>;

  /** Composite ids of live Failed and Deferred rows, formatted by `formatEndpointErrorList`. */
  getEndpointErrorList(endpointId: string): Promise<string>;

  /**
   * Deletes everything whose retention has run out at `now` (default: the store clock), per the fixed
   * retention table and the configured unresolved retention. Every write restarts its row's window.
   */
  sweepExpired(now?: Date): Promise<RetentionSweepResult>;
}
