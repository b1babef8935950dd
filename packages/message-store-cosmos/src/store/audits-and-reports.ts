import { randomUUID } from 'node:crypto';
import {
  type AuditSearchRequest,
  type AuditSearchResult,
  type AuditWrite,
  type EndpointEventsRef,
  type EventReport,
  type EventReportWrite,
  FIXED_RETENTION_MS,
  type MessageAuditEntity,
  MessageAuditType,
  type TrackingAuditsAndReports,
} from '@nimbus/message-store';
import {
  asciiLower,
  assertValidStoreEndpointId,
  requireNonEmptyString,
  toMessageAudit,
} from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { encodeId } from './layout.js';
import { afterCursor, rowsWanted, seqPageOf, seqPageRequest } from './seq-keyset.js';
import { Where } from './where.js';

interface AuditDocument {
  readonly id: string;
  readonly eventId: string;
  readonly endpointId: string | null;
  readonly eventTypeId: string | null;
  readonly audit: Omit<MessageAuditEntity, 'auditTimestamp'> & { auditTimestamp: string };
  readonly createdAt: string;
  readonly seq: number;
  readonly ttl: number;
  readonly expiresAt: number;
}

interface ReportDocument extends Omit<EventReport, 'reportedAtUtc'> {
  readonly id: string;
  readonly reportedAtUtc: string | null;
}

const fromAudit = (doc: AuditDocument): MessageAuditEntity => ({
  ...doc.audit,
  auditTimestamp: new Date(doc.audit.auditTimestamp),
});

const RESUBMITS = [MessageAuditType.Resubmit, MessageAuditType.ResubmitWithChanges];

/** The audit trail (`audits`, partitioned by event) and the report markers (`eventreports`, by endpoint). */
export class CosmosAuditsAndReports implements TrackingAuditsAndReports {
  constructor(private readonly context: CosmosStoreContext) {}

  async storeMessageAudit({ eventId, audit, endpointId, eventTypeId }: AuditWrite): Promise<void> {
    requireNonEmptyString('eventId', eventId);
    const auditedEndpoint = endpointId ?? audit.endpointId;
    if (auditedEndpoint != null) assertValidStoreEndpointId(auditedEndpoint);
    const createdAt = this.context.now();
    const entity = toMessageAudit(eventId, audit, endpointId ?? null);
    const doc: AuditDocument = {
      id: randomUUID(),
      eventId,
      endpointId: endpointId ?? audit.endpointId ?? null,
      eventTypeId: eventTypeId ?? null,
      audit: { ...entity, auditTimestamp: entity.auditTimestamp.toISOString() },
      createdAt: createdAt.toISOString(),
      seq: this.context.nextSeq(createdAt),
      ttl: FIXED_RETENTION_MS.audits / 1000,
      expiresAt: createdAt.getTime() + FIXED_RETENTION_MS.audits,
    };
    await this.context.container('audits').items.create(doc);
  }

  async getMessageAudits(eventId: string): Promise<MessageAuditEntity[]> {
    const docs = await queryAll<AuditDocument>(
      this.context.container('audits'),
      'SELECT * FROM c WHERE c.eventId = @e ORDER BY c.seq ASC',
      [{ name: '@e', value: eventId }],
    );
    return docs
      .sort((a, b) =>
        a.audit.auditTimestamp < b.audit.auditTimestamp
          ? -1
          : a.audit.auditTimestamp > b.audit.auditTimestamp
            ? 1
            : a.seq - b.seq,
      )
      .map(fromAudit);
  }

  async searchAudits({
    filter,
    continuationToken = null,
    maxItems: maxItemCount,
  }: AuditSearchRequest): Promise<AuditSearchResult> {
    const request = seqPageRequest(continuationToken, maxItemCount);
    const where = new Where()
      .prefix('c.eventId', filter.eventId)
      .prefix('c.audit.auditorName', filter.auditorName)
      .prefix('c.eventTypeId', filter.eventTypeId)
      .equalsIfGiven('c.audit.auditType', filter.auditType)
      .between('c.createdAt', filter.createdAtFrom, filter.createdAtTo);
    if (filter.text) {
      const needle = where.value(asciiLower(filter.text));
      const fields = ['c.audit.auditorName', 'c.eventId', 'c.endpointId', 'c.audit.comment', 'c.audit.data'];
      where.raw(
        `(${fields.map((f) => `(IS_STRING(${f}) AND CONTAINS(LOWER(${f}), ${needle}))`).join(' OR ')})`,
      );
    }
    if (filter.endpointIdExact && filter.endpointId) {
      where.raw(
        `(IS_STRING(c.endpointId) AND LOWER(c.endpointId) = ${where.value(filter.endpointId.toLowerCase())})`,
      );
    } else {
      where.prefix('c.endpointId', filter.endpointId);
    }
    afterCursor(where, request.cursor, request.cursor?.seen ?? []);
    const top = where.value(rowsWanted(request));
    const docs = await queryAll<AuditDocument>(
      this.context.container('audits'),
      `SELECT TOP ${top} * FROM c ${where} ORDER BY c.seq DESC`,
      where.parameters,
    );
    const page = seqPageOf(docs, request, (doc) => doc.id);
    return {
      audits: page.rows.map((doc) => ({
        eventId: doc.eventId,
        endpointId: doc.endpointId,
        eventTypeId: doc.eventTypeId,
        audit: fromAudit(doc),
        createdAt: new Date(doc.createdAt),
      })),
      continuationToken: page.continuationToken,
    };
  }

  async getResubmitCounts({ endpointId, eventIds }: EndpointEventsRef): Promise<ReadonlyMap<string, number>> {
    const counts = new Map<string, number>();
    if (!endpointId || eventIds.length === 0) return counts;
    const where = new Where('c.audit.accessDenied = false')
      .equals('c.endpointId', endpointId)
      .oneOf('c.eventId', [...new Set(eventIds)])
      .oneOf('c.audit.auditType', RESUBMITS);
    const ids = await queryAll<string>(
      this.context.container('audits'),
      `SELECT VALUE c.eventId FROM c ${where}`,
      where.parameters,
    );
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }

  async setEventReport({
    endpointId,
    eventId,
    isReported,
    reportedBy,
    ticketId,
  }: EventReportWrite): Promise<void> {
    assertValidStoreEndpointId(endpointId);
    requireNonEmptyString('eventId', eventId);
    const doc: ReportDocument = {
      id: encodeId(eventId),
      endpointId,
      eventId,
      isReported,
      reportedBy: reportedBy ?? null,
      reportedAtUtc: this.context.now().toISOString(),
      ticketId: isReported ? (ticketId ?? null) : null,
    };
    await this.context.container('eventreports').items.upsert(doc);
  }

  async getEventReports({
    endpointId,
    eventIds,
  }: EndpointEventsRef): Promise<ReadonlyMap<string, EventReport>> {
    const reports = new Map<string, EventReport>();
    const wanted = [...new Set(eventIds)].filter((id) => id !== '');
    if (!endpointId || wanted.length === 0) return reports;
    const where = new Where().equals('c.endpointId', endpointId).oneOf('c.eventId', wanted);
    const docs = await queryAll<ReportDocument>(
      this.context.container('eventreports'),
      `SELECT * FROM c ${where}`,
      where.parameters,
    );
    for (const doc of docs) {
      reports.set(doc.eventId, {
        endpointId: doc.endpointId,
        eventId: doc.eventId,
        isReported: doc.isReported,
        reportedBy: doc.reportedBy,
        reportedAtUtc: doc.reportedAtUtc === null ? null : new Date(doc.reportedAtUtc),
        ticketId: doc.ticketId,
      });
    }
    return reports;
  }
}
