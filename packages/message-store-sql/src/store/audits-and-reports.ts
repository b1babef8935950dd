import {
  type AuditSearchRequest,
  type AuditSearchResult,
  type AuditWrite,
  type EndpointEventsRef,
  type EventReport,
  type EventReportWrite,
  type MessageAuditEntity,
  MessageAuditType,
  type TrackingAuditsAndReports,
} from '@nimbus/message-store';
import {
  asciiLower,
  assertValidStoreEndpointId,
  offsetPageRequest,
  requireNonEmptyString,
  toMessageAudit,
} from '@nimbus/message-store/provider';
import { type SqlBool, sql } from 'kysely';
import { decodeDocument, encodeDocument, toDateOrNull, toMs } from './document-codec.js';
import { fetchOffsetPage } from './fetch-offset-page.js';
import { chunks, startsWithIgnoringCase } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

const RESUBMITS: MessageAuditType[] = [MessageAuditType.Resubmit, MessageAuditType.ResubmitWithChanges];

/** The audit trail and the per-event "reported" markers. */
export class AuditsAndReports implements TrackingAuditsAndReports {
  constructor(private readonly context: StoreContext) {}

  async storeMessageAudit({ eventId, audit: write, endpointId, eventTypeId }: AuditWrite): Promise<void> {
    const auditedEndpoint = endpointId ?? write.endpointId;
    if (auditedEndpoint != null) assertValidStoreEndpointId(auditedEndpoint);
    const audit = toMessageAudit(eventId, write, endpointId ?? null);
    await this.context.dialect.db
      .insertInto('message_audits')
      .values({
        event_id: eventId,
        endpoint_id: endpointId ?? audit.endpointId,
        event_type_id: eventTypeId ?? null,
        auditor_name: audit.auditorName,
        audit_type: audit.auditType,
        access_denied: audit.accessDenied ? 1 : 0,
        audit_timestamp: toMs(audit.auditTimestamp),
        created_at: this.context.clock.now(),
        document_json: encodeDocument(audit),
      })
      .execute();
  }

  async getMessageAudits(eventId: string): Promise<MessageAuditEntity[]> {
    const rows = await this.context.dialect.db
      .selectFrom('message_audits')
      .select('document_json')
      .where('event_id', '=', eventId)
      .orderBy('audit_timestamp', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map((r) => decodeDocument<MessageAuditEntity>(r.document_json));
  }

  async getResubmitCounts({ endpointId, eventIds }: EndpointEventsRef): Promise<ReadonlyMap<string, number>> {
    const counts = new Map<string, number>();
    if (!endpointId || eventIds.length === 0) return counts;
    for (const batch of chunks([...new Set(eventIds)], 500)) {
      const rows = await this.context.dialect.db
        .selectFrom('message_audits')
        .select((eb) => ['event_id', eb.fn.countAll<number>().as('count')])
        .where('endpoint_id', '=', endpointId)
        .where('event_id', 'in', batch)
        .where('audit_type', 'in', RESUBMITS)
        .where('access_denied', '=', 0)
        .groupBy('event_id')
        .execute();
      for (const row of rows) if (Number(row.count) > 0) counts.set(row.event_id, Number(row.count));
    }
    return counts;
  }

  async searchAudits({
    filter,
    continuationToken = null,
    maxItems: maxItemCount,
  }: AuditSearchRequest): Promise<AuditSearchResult> {
    const request = offsetPageRequest(continuationToken, maxItemCount);
    let query = this.context.dialect.db
      .selectFrom('message_audits')
      .select(['event_id', 'endpoint_id', 'event_type_id', 'created_at', 'document_json']);
    if (filter.eventId) query = query.where(startsWithIgnoringCase('event_id', filter.eventId));
    if (filter.endpointId) {
      const endpointId = filter.endpointId;
      query = filter.endpointIdExact
        ? query.where(sql<SqlBool>`lower(${sql.ref('endpoint_id')}) = lower(${endpointId})`)
        : query.where(startsWithIgnoringCase('endpoint_id', endpointId));
    }
    if (filter.auditorName) query = query.where(startsWithIgnoringCase('auditor_name', filter.auditorName));
    if (filter.eventTypeId) query = query.where(startsWithIgnoringCase('event_type_id', filter.eventTypeId));
    if (filter.auditType) query = query.where('audit_type', '=', filter.auditType);
    if (filter.createdAtFrom) query = query.where('created_at', '>=', toMs(filter.createdAtFrom));
    if (filter.createdAtTo) query = query.where('created_at', '<=', toMs(filter.createdAtTo));
    if (filter.text) {
      const { dialect } = this.context;
      const needle = asciiLower(filter.text);
      const fields = [
        sql.ref('auditor_name'),
        sql.ref('event_id'),
        sql.ref('endpoint_id'),
        dialect.jsonText('document_json', ['comment']),
        dialect.jsonText('document_json', ['data']),
      ];
      query = query.where(
        sql<SqlBool>`(${sql.join(
          fields.map((field) => dialect.containsText(sql<string | null>`lower(${field})`, needle)),
          sql` or `,
        )})`,
      );
    }
    const page = await fetchOffsetPage(query.orderBy('created_at', 'desc').orderBy('id', 'desc'), request);
    return {
      audits: page.rows.map((row) => ({
        eventId: row.event_id,
        endpointId: row.endpoint_id,
        eventTypeId: row.event_type_id,
        audit: decodeDocument<MessageAuditEntity>(row.document_json),
        createdAt: new Date(row.created_at),
      })),
      continuationToken: page.continuationToken,
    };
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
    const values = {
      is_reported: isReported ? 1 : 0,
      reported_by: reportedBy,
      reported_at: this.context.clock.now(),
      ticket_id: isReported ? ticketId : null,
    };
    await this.context.dialect.db
      .insertInto('event_reports')
      .values({ endpoint_id: endpointId, event_id: eventId, ...values })
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doUpdateSet(values))
      .execute();
  }

  async getEventReports({
    endpointId,
    eventIds,
  }: EndpointEventsRef): Promise<ReadonlyMap<string, EventReport>> {
    const reports = new Map<string, EventReport>();
    const ids = [...new Set(eventIds.filter((id) => id !== ''))];
    if (!endpointId || ids.length === 0) return reports;
    for (const batch of chunks(ids, 500)) {
      const rows = await this.context.dialect.db
        .selectFrom('event_reports')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .where('event_id', 'in', batch)
        .execute();
      for (const row of rows) {
        reports.set(row.event_id, {
          endpointId: row.endpoint_id,
          eventId: row.event_id,
          isReported: row.is_reported === 1,
          reportedBy: row.reported_by,
          reportedAtUtc: toDateOrNull(row.reported_at),
          ticketId: row.ticket_id,
        });
      }
    }
    return reports;
  }
}
