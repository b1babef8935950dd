import { MessageType } from '@nimbus/core';
import type { MessageEntity } from './entities/message-entity.js';
import type {
  EndpointEventTypeCount,
  EndpointLatencyMetricsResult,
  EndpointMetricsResult,
  EndpointTimeSeriesResult,
  EventTypeTimeSeriesResult,
  FailedMessageInfo,
  LatencyAggregate,
  TimeSeriesResult,
} from './entities/metrics.js';
import { bucketKey, bucketKeysBetween, normaliseBucketLength } from './time-buckets.js';

const OUTCOMES: ReadonlySet<MessageType> = new Set<MessageType>([
  MessageType.ResolutionResponse,
  MessageType.ErrorResponse,
  MessageType.SkipResponse,
  MessageType.DeferralResponse,
  MessageType.UnsupportedResponse,
]);

function countBy(
  messages: readonly MessageEntity[],
  keyOf: (m: MessageEntity) => string,
): EndpointEventTypeCount[] {
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

/*
 * The metrics contract computed from the history messages with `enqueuedTimeUtc >= from`, the same way
 * for every provider that reads those messages and aggregates them itself (memory, Cosmos DB).
 */

const ofType = (messages: readonly MessageEntity[], type: MessageType) =>
  messages.filter((m) => m.messageType === type);

export function endpointMetricsOf(messages: readonly MessageEntity[]): EndpointMetricsResult {
  return {
    published: countBy(ofType(messages, MessageType.EventRequest), (m) => m.from || m.endpointId),
    handled: countBy(ofType(messages, MessageType.ResolutionResponse), (m) => m.endpointId),
    failed: countBy(ofType(messages, MessageType.ErrorResponse), (m) => m.endpointId),
  };
}

export function latencyMetricsOf(messages: readonly MessageEntity[]): EndpointLatencyMetricsResult {
  const groups = new Map<string, MessageEntity[]>();
  for (const m of messages.filter((x) => OUTCOMES.has(x.messageType))) {
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
}

export function failedMessageInsightsOf(messages: readonly MessageEntity[]): FailedMessageInfo[] {
  return ofType(messages, MessageType.ErrorResponse)
    .sort((a, b) => b.enqueuedTimeUtc.getTime() - a.enqueuedTimeUtc.getTime())
    .map((m) => ({
      endpointId: m.endpointId,
      eventTypeId: m.eventTypeId ?? '',
      errorText: m.messageContent.errorContent?.errorText || m.deadLetterErrorDescription || '',
      enqueuedTimeUtc: new Date(m.enqueuedTimeUtc),
      eventId: m.eventId,
    }));
}

export function timeSeriesOf(
  messages: readonly MessageEntity[],
  from: Date,
  now: Date,
  substringLength: number,
  bucketLabel: string,
): TimeSeriesResult {
  const length = normaliseBucketLength(substringLength);
  const buckets = new Map<string, { published: number; handled: number; failed: number }>();
  for (const key of bucketKeysBetween(from, now, length)) {
    buckets.set(key, { published: 0, handled: 0, failed: 0 });
  }
  for (const m of messages) {
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
}

export function endpointTimeSeriesOf(
  messages: readonly MessageEntity[],
  substringLength: number,
  bucketLabel: string,
): EndpointTimeSeriesResult {
  const length = normaliseBucketLength(substringLength);
  const buckets = new Map<
    string,
    {
      timestamp: string;
      endpointId: string;
      published: number;
      handled: number;
      failed: number;
      times: (number | null)[];
    }
  >();
  const bucketOf = (m: MessageEntity, endpointId: string) => {
    const timestamp = bucketKey(m.enqueuedTimeUtc, length);
    const key = `${timestamp}\u0000${endpointId}`;
    const bucket = buckets.get(key) ?? {
      timestamp,
      endpointId,
      published: 0,
      handled: 0,
      failed: 0,
      times: [],
    };
    buckets.set(key, bucket);
    return bucket;
  };
  for (const m of messages) {
    if (m.messageType === MessageType.EventRequest) bucketOf(m, m.from || m.endpointId).published += 1;
    if (!OUTCOMES.has(m.messageType)) continue;
    const bucket = bucketOf(m, m.endpointId);
    if (m.messageType === MessageType.ResolutionResponse) bucket.handled += 1;
    if (m.messageType === MessageType.ErrorResponse) bucket.failed += 1;
    bucket.times.push(m.processingTimeMs);
  }
  return {
    bucketSize: bucketLabel,
    dataPoints: [...buckets.values()]
      .sort((a, b) => ordinal(a.timestamp, b.timestamp) || ordinal(a.endpointId, b.endpointId))
      .map(({ times, ...counts }) => ({ ...counts, processing: aggregate(times) })),
  };
}

const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function eventTypeTimeSeriesOf(
  messages: readonly MessageEntity[],
  substringLength: number,
  bucketLabel: string,
): EventTypeTimeSeriesResult {
  const length = normaliseBucketLength(substringLength);
  const series = new Map<string, Map<string, number>>();
  for (const m of ofType(messages, MessageType.EventRequest)) {
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
}
