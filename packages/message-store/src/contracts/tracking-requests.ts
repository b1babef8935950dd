import type { AuditFilter, EventFilter, MessageFilter } from '../entities/filters.js';
import type { MessageAuditWrite } from '../entities/message-audit.js';
import type { MessageEntityWrite } from '../entities/message-entity.js';
import type { UnresolvedEventWrite } from '../entities/unresolved-event.js';
import type { ResolutionStatus } from '../enums.js';

/*
 * The named parameters of the store contract (v2). Every write and lookup of a resolver row takes the
 * same key object; every call with more than one parameter takes one option bag.
 */

/** Identifies one resolver row. `sessionId` is "" for an event without a session. */
export interface TrackedEventKey {
  readonly endpointId: string;
  readonly eventId: string;
  readonly sessionId: string;
}

/** `getEventInStatus`: the live row `key`, if it is in `status`. */
export interface StatusLookup {
  readonly key: TrackedEventKey;
  readonly status: ResolutionStatus;
}

/** One event on one endpoint, whatever the session. */
export interface EndpointEventRef {
  readonly endpointId: string;
  readonly eventId: string;
}

/** One history record. */
export interface MessageRef {
  readonly eventId: string;
  readonly messageId: string;
}

/** A status write: the row `key` becomes `status` with `content`, subject to the stale-write guard. */
export interface StatusWrite {
  readonly key: TrackedEventKey;
  readonly status: ResolutionStatus;
  readonly content: UnresolvedEventWrite;
}

/** The operator reconcile: complete the row only while it is still the Pending row the operator saw. */
export interface PendingCompletion {
  readonly key: TrackedEventKey;
  /** Exact comparison with the row's `lastMessageId`; null matches null. */
  readonly expectedLastMessageId: string | null;
  readonly content: UnresolvedEventWrite;
}

/** History records and status writes applied together, in one transaction where the provider has them. */
export interface TrackingBatch {
  readonly messages?: readonly MessageEntityWrite[];
  /** Applied in order; several writes of one key are guarded one after the other. */
  readonly statuses?: readonly StatusWrite[];
}

/** Per entry of the batch, in the batch's order. */
export interface TrackingBatchResult {
  /** True when the history record was new (first write wins per (eventId, messageId)). */
  readonly messagesStored: readonly boolean[];
  /** True when written, false only when the stale-write guard refused. */
  readonly statusesWritten: readonly boolean[];
}

/** One page of a continuation-token search. */
export interface SearchPageRequest<F> {
  readonly filter: F;
  readonly continuationToken?: string | null;
  readonly maxItems: number;
}

export type EventSearchRequest = SearchPageRequest<EventFilter>;
export type MessageSearchRequest = SearchPageRequest<MessageFilter>;
export type AuditSearchRequest = SearchPageRequest<AuditFilter>;

export interface EndpointPageRequest {
  readonly endpointId: string;
  readonly pageSize: number;
  readonly continuationToken?: string | null;
}

export interface SessionPageRequest {
  readonly endpointId: string;
  readonly sessionId: string;
  /** Negative is 0. */
  readonly skip: number;
  readonly take: number;
}

export interface SessionRef {
  readonly endpointId: string;
  readonly sessionId: string;
}

export interface SessionsRef {
  readonly endpointId: string;
  readonly sessionIds: readonly string[];
}

/** The whole endpoint, or one session of it. */
export interface PurgeScope {
  readonly endpointId: string;
  readonly sessionId?: string;
}

export interface EndpointEventsRef {
  readonly endpointId: string;
  readonly eventIds: readonly string[];
}

/** `getEventById`: one row by its composite id `{eventId}_{sessionId}`. */
export interface EventIdOnEndpoint {
  readonly endpointId: string;
  readonly id: string;
}

export interface EventIdsOnEndpoint {
  readonly endpointId: string;
  /** Composite ids `{eventId}_{sessionId}` or bare event ids. */
  readonly ids: readonly string[];
}

export interface HandoffJobRef {
  readonly endpointId: string;
  readonly externalJobId: string | null;
}

export interface NextHandoffRequest {
  readonly endpointId: string;
  /** Empty or absent = any event type. */
  readonly eventTypeIds?: readonly string[] | null;
}

export interface AuditWrite {
  readonly eventId: string;
  readonly audit: MessageAuditWrite;
  /** Stored alongside; fills the entity's null endpointId. */
  readonly endpointId?: string | null;
  readonly eventTypeId?: string | null;
}

export interface EventReportWrite {
  readonly endpointId: string;
  readonly eventId: string;
  readonly isReported: boolean;
  readonly reportedBy: string | null;
  readonly ticketId: string | null;
}
