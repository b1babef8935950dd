import type { MessageType } from '@nimbus/core';
import type { MessageAuditType, ResolutionStatus } from '../enums.js';
import type { MessageAuditEntity } from './message-audit.js';
import type { MessageEntity } from './message-entity.js';
import type { UnresolvedEvent } from './unresolved-event.js';

/*
 * Matching rules shared by every provider:
 * - id-like strings (event, endpoint, session, message id, auditor name, audit event type) match a
 *   case-insensitive PREFIX;
 * - list filters match set membership exactly;
 * - `to` / `from` / `messageType` match exactly;
 * - date bounds are inclusive;
 * - `payload` is a literal, case-sensitive substring of the event's `eventJson`.
 */

/** The criteria event and message searches share (the fields of a tracked message). */
export type TrackedMessageFilter = Pick<
  EventFilter & MessageFilter,
  | 'endpointId'
  | 'eventId'
  | 'sessionId'
  | 'eventTypeId'
  | 'from'
  | 'to'
  | 'messageType'
  | 'enqueuedAtFrom'
  | 'enqueuedAtTo'
>;

export interface EventFilter {
  readonly endpointId?: string | null;
  readonly updatedAtFrom?: Date | null;
  readonly updatedAtTo?: Date | null;
  readonly enqueuedAtFrom?: Date | null;
  readonly enqueuedAtTo?: Date | null;
  readonly eventId?: string | null;
  readonly eventTypeId?: readonly string[] | null;
  readonly sessionId?: string | null;
  readonly to?: string | null;
  readonly from?: string | null;
  readonly resolutionStatus?: readonly ResolutionStatus[] | null;
  readonly payload?: string | null;
  readonly messageType?: MessageType | null;
  /** Exact failure signature key (`rowFailureSignature`): only Failed and DeadLettered rows carry one. */
  readonly failureSignature?: string | null;
}

export interface MessageFilter {
  readonly endpointId?: string | null;
  readonly eventId?: string | null;
  readonly messageId?: string | null;
  readonly sessionId?: string | null;
  readonly eventTypeId?: readonly string[] | null;
  readonly from?: string | null;
  readonly to?: string | null;
  readonly messageType?: MessageType | null;
  readonly enqueuedAtFrom?: Date | null;
  readonly enqueuedAtTo?: Date | null;
}

export interface AuditFilter {
  readonly eventId?: string | null;
  readonly endpointId?: string | null;
  /** When true the endpoint matches by case-insensitive equality instead of prefix. */
  readonly endpointIdExact?: boolean;
  readonly auditorName?: string | null;
  readonly eventTypeId?: string | null;
  readonly auditType?: MessageAuditType | null;
  readonly createdAtFrom?: Date | null;
  readonly createdAtTo?: Date | null;
  /**
   * A literal substring of the auditor name, event id, endpoint id, comment or data, ASCII letters compared
   * case-insensitively (no wildcards).
   */
  readonly text?: string | null;
}

/** Search results never carry `eventJson` (it is null in `messageContent.eventContent`). */
export interface SearchResponse {
  readonly events: readonly UnresolvedEvent[];
  /** Opaque; null when there are no more results. */
  readonly continuationToken: string | null;
}

export interface MessageSearchResult {
  readonly messages: readonly MessageEntity[];
  readonly continuationToken: string | null;
}

export interface AuditSearchItem {
  readonly eventId: string;
  readonly endpointId: string | null;
  readonly eventTypeId: string | null;
  readonly audit: MessageAuditEntity;
  /** When the store wrote the audit row (store clock). */
  readonly createdAt: Date;
}

export interface AuditSearchResult {
  readonly audits: readonly AuditSearchItem[];
  readonly continuationToken: string | null;
}
