import { MessageType } from '@nimbus/core';
import { requireNonEmptyString as requireId } from '../argument-checks.js';
import type {
  TrackingAuditsAndReports,
  TrackingMessageHistory,
} from '../contracts/message-tracking-store.js';
import type { AuditSearchItem } from '../entities/filters.js';
import type { EventReport } from '../entities/message-audit.js';
import type { MessageEntity, MessageEntityWrite } from '../entities/message-entity.js';
import { MessageAuditType } from '../enums.js';
import { toMessageAudit, toMessageEntity, withEventJsonStripped } from '../normalize.js';
import { offsetPageRequest, sliceOffsetPage } from '../offset-paging.js';
import { assertValidStoreEndpointId } from '../reserved-endpoint-ids.js';
import { FIXED_RETENTION_MS } from '../retention.js';
import {
  matchesAnyText,
  matchesExact,
  matchesPrefix,
  matchesTrackedMessageFilter,
  withinRange,
} from '../search-matching.js';
import { clone, type MemoryState, nextSeq, now, pairKey, type StoredMessage } from './state.js';

type HistoryMethods = TrackingMessageHistory & TrackingAuditsAndReports;

const newestEnqueued = (a: StoredMessage, b: StoredMessage) =>
  b.entity.enqueuedTimeUtc.getTime() - a.entity.enqueuedTimeUtc.getTime() || b.seq - a.seq;

const REQUEST_WITH_PAYLOAD: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.EventRequest,
  MessageType.ResubmissionRequest,
]);

const RESUBMITS: ReadonlySet<string> = new Set([
  MessageAuditType.Resubmit,
  MessageAuditType.ResubmitWithChanges,
]);

export function createTrackingHistory(state: MemoryState): HistoryMethods {
  const ofEvent = (eventId: string) =>
    [...state.messages.values()].filter((m) => m.entity.eventId === eventId);
  const newestOf = (candidates: StoredMessage[]): MessageEntity | null => {
    const found = candidates.sort(newestEnqueued)[0];
    return found === undefined ? null : clone(found.entity);
  };

  return {
    async storeMessage(message) {
      return storeMemoryMessages(state, [message])[0]!;
    },

    async storeMessages(messages) {
      return storeMemoryMessages(state, messages);
    },

    async getMessage({ eventId, messageId }) {
      const stored = state.messages.get(pairKey(eventId, messageId));
      return stored === undefined ? null : clone(stored.entity);
    },

    async getEventHistory(eventId) {
      return ofEvent(eventId)
        .sort(
          (a, b) => a.entity.enqueuedTimeUtc.getTime() - b.entity.enqueuedTimeUtc.getTime() || a.seq - b.seq,
        )
        .map((m) => clone(m.entity));
    },

    async getLatestEventRequestMessage(eventId) {
      return newestOf(
        ofEvent(eventId).filter(
          (m) =>
            REQUEST_WITH_PAYLOAD.has(m.entity.messageType) &&
            (m.entity.messageContent.eventContent?.eventJson ?? '') !== '',
        ),
      );
    },

    async getFailedMessage({ eventId, endpointId }) {
      return newestOf(
        ofEvent(eventId).filter(
          (m) => m.entity.endpointId === endpointId && m.entity.messageContent.errorContent !== null,
        ),
      );
    },

    async getDeadletteredMessage({ eventId, endpointId }) {
      return newestOf(ofEvent(eventId).filter((m) => m.entity.endpointId === endpointId));
    },

    async removeStoredMessage({ eventId, messageId }) {
      state.messages.delete(pairKey(eventId, messageId));
    },

    async searchMessages({ filter, continuationToken, maxItems }) {
      const request = offsetPageRequest(continuationToken ?? null, maxItems);
      const matching = [...state.messages.values()]
        .filter(
          ({ entity: m }) =>
            matchesTrackedMessageFilter(m, filter) && matchesPrefix(m.messageId, filter.messageId),
        )
        .sort(newestEnqueued);
      const page = sliceOffsetPage(matching, request);
      return {
        messages: page.rows.map((m) => withEventJsonStripped(clone(m.entity))),
        continuationToken: page.continuationToken,
      };
    },

    async storeMessageAudit({ eventId, audit, endpointId, eventTypeId }) {
      requireId('eventId', eventId);
      const auditedEndpoint = endpointId ?? audit.endpointId;
      if (auditedEndpoint != null) assertValidStoreEndpointId(auditedEndpoint);
      const createdAt = now(state);
      state.audits.push({
        eventId,
        endpointId: endpointId ?? audit.endpointId ?? null,
        eventTypeId: eventTypeId ?? null,
        audit: toMessageAudit(eventId, clone(audit), endpointId ?? null),
        createdAt,
        seq: nextSeq(state),
        expiresAt: createdAt.getTime() + FIXED_RETENTION_MS.audits,
      });
    },

    async getMessageAudits(eventId) {
      return state.audits
        .filter((a) => a.eventId === eventId)
        .sort((a, b) => a.audit.auditTimestamp.getTime() - b.audit.auditTimestamp.getTime() || a.seq - b.seq)
        .map((a) => clone(a.audit));
    },

    async searchAudits({ filter, continuationToken, maxItems }) {
      const request = offsetPageRequest(continuationToken ?? null, maxItems);
      const endpointMatches = (endpointId: string | null) => {
        if (!filter.endpointIdExact) return matchesPrefix(endpointId, filter.endpointId);
        if (filter.endpointId == null || filter.endpointId === '') return true;
        return endpointId !== null && endpointId.toLowerCase() === filter.endpointId.toLowerCase();
      };
      const matching = state.audits
        .filter(
          (a) =>
            matchesPrefix(a.eventId, filter.eventId) &&
            endpointMatches(a.endpointId) &&
            matchesPrefix(a.audit.auditorName, filter.auditorName) &&
            matchesPrefix(a.eventTypeId, filter.eventTypeId) &&
            matchesExact(a.audit.auditType, filter.auditType) &&
            withinRange(a.createdAt, filter.createdAtFrom, filter.createdAtTo) &&
            matchesAnyText(
              [a.audit.auditorName, a.eventId, a.endpointId, a.audit.comment, a.audit.data],
              filter.text,
            ),
        )
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq);
      const page = sliceOffsetPage(matching, request);
      return {
        audits: page.rows.map(
          (a): AuditSearchItem => ({
            eventId: a.eventId,
            endpointId: a.endpointId,
            eventTypeId: a.eventTypeId,
            audit: clone(a.audit),
            createdAt: new Date(a.createdAt),
          }),
        ),
        continuationToken: page.continuationToken,
      };
    },

    async getResubmitCounts({ endpointId, eventIds }) {
      const counts = new Map<string, number>();
      if (!endpointId || eventIds.length === 0) return counts;
      const wanted = new Set(eventIds);
      for (const a of state.audits) {
        if (a.endpointId !== endpointId || !wanted.has(a.eventId)) continue;
        if (!RESUBMITS.has(a.audit.auditType) || a.audit.accessDenied) continue;
        counts.set(a.eventId, (counts.get(a.eventId) ?? 0) + 1);
      }
      return counts;
    },

    async setEventReport({ endpointId, eventId, isReported, reportedBy, ticketId }) {
      assertValidStoreEndpointId(endpointId);
      requireId('eventId', eventId);
      state.reports.set(pairKey(endpointId, eventId), {
        endpointId,
        eventId,
        isReported,
        reportedBy: reportedBy ?? null,
        reportedAtUtc: now(state),
        ticketId: isReported ? (ticketId ?? null) : null,
      });
    },

    async getEventReports({ endpointId, eventIds }) {
      const reports = new Map<string, EventReport>();
      for (const eventId of new Set(eventIds)) {
        if (eventId === '') continue;
        const report = state.reports.get(pairKey(endpointId, eventId));
        if (report !== undefined) reports.set(eventId, clone(report));
      }
      return reports;
    },
  };
}

/** Appends history records; first write wins per (eventId, messageId). Synchronous, so atomic. */
export function storeMemoryMessages(state: MemoryState, messages: readonly MessageEntityWrite[]): boolean[] {
  for (const message of messages) {
    requireId('eventId', message.eventId);
    requireId('messageId', message.messageId);
    assertValidStoreEndpointId(message.endpointId);
  }
  return messages.map((message) => {
    const key = pairKey(message.eventId, message.messageId);
    if (state.messages.has(key)) return false;
    state.messages.set(key, {
      entity: toMessageEntity(clone(message)),
      seq: nextSeq(state),
      expiresAt: state.clock.now() + FIXED_RETENTION_MS.messages,
    });
    return true;
  });
}
