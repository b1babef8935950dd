import type { MessageAuditType } from '../enums.js';

/** One operator action (or system action such as a retry) recorded against an event. */
export interface MessageAuditEntity {
  readonly auditorName: string;
  readonly auditTimestamp: Date;
  readonly auditType: MessageAuditType;
  readonly comment: string | null;
  readonly accessDenied: boolean;
  /** Free-form detail (the WebApp truncates it to about 4 KB). */
  readonly data: string | null;
  readonly eventId: string | null;
  readonly endpointId: string | null;
  readonly cloudEventId: string | null;
  readonly cloudEventSource: string | null;
  readonly cloudEventType: string | null;
  readonly cloudEventSubject: string | null;
}

type RequiredAuditField = 'auditorName' | 'auditTimestamp' | 'auditType';

/** What `storeMessageAudit` accepts: `accessDenied` defaults to false, other omitted fields to null. */
export type MessageAuditWrite = Pick<MessageAuditEntity, RequiredAuditField> &
  Partial<Omit<MessageAuditEntity, RequiredAuditField>>;

/** A per-(endpointId, eventId) "already reported" marker. */
export interface EventReport {
  readonly endpointId: string;
  readonly eventId: string;
  readonly isReported: boolean;
  readonly reportedBy: string | null;
  readonly reportedAtUtc: Date | null;
  readonly ticketId: string | null;
}
