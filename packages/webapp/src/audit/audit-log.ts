import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock, Logger } from '@nimbus/core';
import type { MessageAuditType, MessageAuditWrite } from '@nimbus/message-store';
import type { Principal } from '../auth/principal.js';
import { HttpError } from '../http/http-error.js';

const MAX_DATA = 4096;

export interface AuditRecord {
  readonly type: MessageAuditType;
  /** Who acted; for anonymous calls (a failed sign-in) give `auditorName` instead. */
  readonly principal?: Principal | null;
  readonly auditorName?: string;
  readonly accessDenied?: boolean;
  readonly data?: unknown;
  readonly eventId?: string | null;
  /**
   * What a row that is not about an event is filed under (the store keys audit rows by an id):
   * `account:<email>`, `user:<id>`, `token:<id>`; default `site`.
   */
  readonly subject?: string;
  readonly endpointId?: string | null;
  readonly eventTypeId?: string | null;
}

/** How many audit rows the current API request has written (see `countingAuditRows`). */
export interface RequestAuditCount {
  rows: number;
}
const requestRows = new AsyncLocalStorage<RequestAuditCount>();

/** Runs one API request's work while counting the audit rows it writes into `count`. */
export function countingAuditRows<T>(count: RequestAuditCount, work: () => Promise<T>): Promise<T> {
  return requestRows.run(count, work);
}

/** Where audit rows go: the message store's audit table. */
export type AuditSink = (row: MessageAuditWrite & { readonly eventTypeId: string | null }) => Promise<void>;

function serialise(data: unknown): string | null {
  if (data === undefined || data === null) return null;
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.length > MAX_DATA ? `${text.slice(0, MAX_DATA)}… [truncated]` : text;
}

/**
 * Writes exactly one row per privileged action, on the allowed and on the denied branch. Callers write the
 * row before they act: when the sink fails, `write` throws a 503 and the action (or the refusal) does not
 * happen unaudited.
 */
export class AuditLog {
  constructor(
    private readonly sink: AuditSink,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async write(record: AuditRecord): Promise<void> {
    const row = {
      auditorName: record.principal?.name ?? record.auditorName ?? 'anonymous',
      auditTimestamp: new Date(this.clock.now()),
      auditType: record.type,
      accessDenied: record.accessDenied ?? false,
      data: serialise(record.data),
      eventId: record.eventId || record.subject || 'site',
      endpointId: record.endpointId ?? null,
      eventTypeId: record.eventTypeId ?? null,
    };
    this.logger.info({ ...row, auditTimestamp: row.auditTimestamp.toISOString() }, 'WebApp audit event');
    try {
      await this.sink(row);
      const count = requestRows.getStore();
      if (count) count.rows++;
    } catch (error) {
      this.logger.error(
        { err: (error as Error).message, auditType: row.auditType },
        'Audit row could not be stored; the action is refused',
      );
      throw new HttpError(
        503,
        'AuditUnavailable',
        `The audit row for ${row.auditType} could not be stored, so the action was not performed; retry later.`,
      );
    }
  }
}
