import { MessageType } from '@nimbus/core';
import type { MetricsStore } from '../contracts/metrics-store.js';
import type { MessageEntity } from '../entities/message-entity.js';
import type { EndpointEventTypeCount, LatencyAggregate } from '../entities/metrics.js';
import { bucketKey, bucketKeysBetween, normaliseBucketLength } from '../time-buckets.js';
import type { MemoryState } from './state.js';

const OUTCOMES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.ResolutionResponse,
  MessageType.ErrorResponse,
  MessageType.SkipResponse,
  MessageType.DeferralResponse,
  MessageType.UnsupportedResponse,
]);

function countBy(messages: MessageEntity[], keyOf: (m: MessageEntity) => string): EndpointEventTypeCount[] {
  const counts = new Map<string, EndpointEventTypeCount>();
  for (const m of messages) {
    const endpointId = keyOf(m);
    const eventTypeId = m.eventTypeId ?? '';
    const key = `${endpointId}\u0000${eventTypeId}`;
    const current = counts.get(key);
    counts.set(key, { endpointId, eventTypeId, count: (current?.count ?? 0) + 1 });
  }
  return [...counts.values()];
}

function aggregate(values: (number | null)[]): LatencyAggregate {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return { count: 0, avgMs: 0, minMs: 0, maxMs: 0 };
  return {
    count: present.length,
    avgMs: present.reduce((a, b) => a + b, 0) / present.length,
    minMs: Math.min(...present),
    maxMs: Math.max(...present),
  };
}

export function createMemoryMetrics(state: MemoryState): MetricsStore {
  const since = (from: Date) =>
    [...state.messages.values()]
      .map((m) => m.entity)
      .filter((m) => m.enqueuedTimeUtc.getTime() >= from.getTime());
  const ofType = (messages: MessageEntity[], type: MessageType) =>
    messages.filter((m) => m.messageType === type);

  return {
    async getEndpointMetrics(from) {
      const messages = since(from);
      return {
        published: countBy(ofType(messages, MessageType.EventRequest), (m) => m.from || m.endpointId),
        handled: countBy(ofType(messages, MessageType.ResolutionResponse), (m) => m.endpointId),
        failed: countBy(ofType(messages, MessageType.ErrorResponse), (m) => m.endpointId),
      };
    },

    async getEndpointLatencyMetrics(from) {
      const groups = new Map<string, MessageEntity[]>();
      for (const m of since(from).filter((x) => OUTCOMES.has(x.messageType))) {
        const key = `${m.endpointId}\u0000${m.eventTypeId ?? ''}`;
        groups.set(key, [...(groups.get(key) ?? []), m]);
      }
      return {
        latencies: [...groups.values()].map((group) => ({
          endpointId: group[0]!.endpointId,
          eventTypeId: group[0]!.eventTypeId ?? '',
          queue: aggregate(group.map((m) => m.queueTimeMs)),
          processing: aggregate(group.map((m) => m.processingTimeMs)),
        })),
      };
    },

    async getFailedMessageInsights(from) {
      return ofType(since(from), MessageType.ErrorResponse)
        .sort((a, b) => b.enqueuedTimeUtc.getTime() - a.enqueuedTimeUtc.getTime())
        .map((m) => ({
          endpointId: m.endpointId,
          eventTypeId: m.eventTypeId ?? '',
          errorText: m.messageContent.errorContent?.errorText || m.deadLetterErrorDescription || '',
          enqueuedTimeUtc: new Date(m.enqueuedTimeUtc),
          eventId: m.eventId,
        }));
    },

    async getTimeSeriesMetrics({ from, substringLength, bucketLabel }) {
      const length = normaliseBucketLength(substringLength);
      const buckets = new Map<string, { published: number; handled: number; failed: number }>();
      for (const key of bucketKeysBetween(from, new Date(state.clock.now()), length)) {
        buckets.set(key, { published: 0, handled: 0, failed: 0 });
      }
      for (const m of since(from)) {
        const field =
          m.messageType === MessageType.EventRequest
            ? 'published'
            : m.messageType === MessageType.ResolutionResponse
              ? 'handled'
              : m.messageType === MessageType.ErrorResponse
                ? 'failed'
                : null;
        if (field === null) continue;
        const key = bucketKey(m.enqueuedTimeUtc, length);
        const bucket = buckets.get(key) ?? { published: 0, handled: 0, failed: 0 };
        bucket[field] += 1;
        buckets.set(key, bucket);
      }
      return {
        bucketSize: bucketLabel,
        dataPoints: [...buckets.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([timestamp, counts]) => ({ timestamp, ...counts })),
      };
    },

    async getEventTypeTimeSeriesMetrics({ from, substringLength, bucketLabel }) {
      const length = normaliseBucketLength(substringLength);
      const series = new Map<string, Map<string, number>>();
      for (const m of ofType(since(from), MessageType.EventRequest)) {
        if (!m.eventTypeId) continue;
        const perBucket = series.get(m.eventTypeId) ?? new Map<string, number>();
        const key = bucketKey(m.enqueuedTimeUtc, length);
        perBucket.set(key, (perBucket.get(key) ?? 0) + 1);
        series.set(m.eventTypeId, perBucket);
      }
      return {
        bucketSize: bucketLabel,
        series: [...series.entries()]
          .map(([eventTypeId, perBucket]) => ({
            eventTypeId,
            total: [...perBucket.values()].reduce((a, b) => a + b, 0),
            dataPoints: [...perBucket.entries()]
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([timestamp, published]) => ({ timestamp, published })),
          }))
          .sort((a, b) => b.total - a.total || (a.eventTypeId < b.eventTypeId ? -1 : 1)),
      };
    },
  };
}
