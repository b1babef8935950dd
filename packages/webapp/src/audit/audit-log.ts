import type { Clock, Logger } from '@nimbus/core';
import type { MessageAuditType, MessageAuditWrite } from '@nimbus/message-store';
import type { Principal } from '../auth/principal.js';

const MAX_DATA = 4096;

export interface AuditRecord {
  readonly type: MessageAuditType;
  readonly principal: Principal;
  readonly accessDenied?: boolean;
  readonly data?: unknown;
  readonly eventId?: string | null;
  readonly endpointId?: string | null;
  readonly eventTypeId?: string | null;
}

/** Where audit rows go: the message store's audit table. */
export type AuditSink = (row: MessageAuditWrite & { readonly eventTypeId: string | null }) => Promise<void>;

function serialise(data: unknown): string | null {
  if (data === undefined || data === null) return null;
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.length > MAX_DATA ? `${text.slice(0, MAX_DATA)}… [truncated]` : text;
}

/**
 * Writes exactly one row per privileged action, on the allowed and on the denied branch. A failing sink is
 * logged and does not fail the action it describes (the action already happened or was already refused).
 */
export class AuditLog {
  constructor(
    private readonly sink: AuditSink,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async write(record: AuditRecord): Promise<void> {
    const row = {
      auditorName: record.principal.name,
      auditTimestamp: new Date(this.clock.now()),
      auditType: record.type,
      accessDenied: record.accessDenied ?? false,
      data: serialise(record.data),
      eventId: record.eventId ?? null,
      endpointId: record.endpointId ?? null,
      eventTypeId: record.eventTypeId ?? null,
    };
    this.logger.info({ ...row, auditTimestamp: row.auditTimestamp.toISOString() }, 'WebApp audit event');
    try {
      await this.sink(row);
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message, auditType: row.auditType },
        'Audit row could not be stored',
      );
    }
  }
}
