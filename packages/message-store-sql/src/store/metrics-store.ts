import { MessageType } from '@nimbus/core';
import type {
  EndpointEventTypeCount,
  EndpointLatencyMetricsResult,
  EndpointMetricsResult,
  EndpointTimeSeriesBucket,
  EndpointTimeSeriesResult,
  EventTypeTimeSeriesResult,
  FailedMessageInfo,
  LatencyAggregate,
  MessageEntity,
  MetricsStore,
  TimeSeriesRequest,
  TimeSeriesResult,
} from '@nimbus/message-store';
import { sql } from 'kysely';
import { decodeDocument, toMs } from './document-codec.js';
import { ordinalCompare } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

const OUTCOME_TYPES: MessageType[] = [
  MessageType.ResolutionResponse,
  MessageType.ErrorResponse,
  MessageType.SkipResponse,
  MessageType.DeferralResponse,
  MessageType.UnsupportedResponse,
];
type BucketLength = 10 | 13 | 16;
const BUCKET_MS: Record<BucketLength, number> = { 16: 60_000, 13: 3_600_000, 10: 86_400_000 };

function bucketLength(substringLength: number): BucketLength {
  return substringLength === 16 || substringLength === 10 ? substringLength : 13;
}
const bucketKey = (ms: number, length: BucketLength) => new Date(ms).toISOString().slice(0, length);

/** Metrics aggregated in SQL over the per-message history. */
export class SqlMetricsStore implements MetricsStore {
  constructor(private readonly context: StoreContext) {}

  private since(from: Date) {
    return this.context.dialect.db.selectFrom('messages').where('enqueued_time', '>=', toMs(from));
  }

  private async countBy(from: Date, type: MessageType, key: 'from_address' | 'endpoint_id') {
    const endpoint =
      key === 'from_address'
        ? sql<string>`coalesce(nullif(${sql.ref('from_address')}, ''), ${sql.ref('endpoint_id')})`
        : sql<string>`${sql.ref('endpoint_id')}`;
    const rows = await this.since(from)
      .select((eb) => [
        endpoint.as('endpoint'),
        sql<string>`coalesce(${sql.ref('event_type_id')}, '')`.as('event_type'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('message_type', '=', type)
      .groupBy([endpoint, sql`coalesce(${sql.ref('event_type_id')}, '')`])
      .execute();
    return rows
      .map(
        (r): EndpointEventTypeCount => ({
          endpointId: r.endpoint,
          eventTypeId: r.event_type,
          count: Number(r.count),
        }),
      )
      .sort(
        (a, b) => ordinalCompare(a.endpointId, b.endpointId) || ordinalCompare(a.eventTypeId, b.eventTypeId),
      );
  }

  async getEndpointMetrics(from: Date): Promise<EndpointMetricsResult> {
    return {
      published: await this.countBy(from, MessageType.EventRequest, 'from_address'),
      handled: await this.countBy(from, MessageType.ResolutionResponse, 'endpoint_id'),
      failed: await this.countBy(from, MessageType.ErrorResponse, 'endpoint_id'),
    };
  }

  async getEndpointLatencyMetrics(from: Date): Promise<EndpointLatencyMetricsResult> {
    const eventType = sql<string>`coalesce(${sql.ref('event_type_id')}, '')`;
    const rows = await this.since(from)
      .select((eb) => [
        'endpoint_id',
        eventType.as('event_type'),
        eb.fn.count<number>('queue_time_ms').as('q_count'),
        eb.fn.avg<number>('queue_time_ms').as('q_avg'),
        eb.fn.min<number>('queue_time_ms').as('q_min'),
        eb.fn.max<number>('queue_time_ms').as('q_max'),
        eb.fn.count<number>('processing_time_ms').as('p_count'),
        eb.fn.avg<number>('processing_time_ms').as('p_avg'),
        eb.fn.min<number>('processing_time_ms').as('p_min'),
        eb.fn.max<number>('processing_time_ms').as('p_max'),
      ])
      .where('message_type', 'in', OUTCOME_TYPES)
      .groupBy(['endpoint_id', eventType])
      .execute();
    const aggregate = (count: unknown, avg: unknown, min: unknown, max: unknown): LatencyAggregate =>
      Number(count) === 0
        ? { count: 0, avgMs: 0, minMs: 0, maxMs: 0 }
        : { count: Number(count), avgMs: Number(avg), minMs: Number(min), maxMs: Number(max) };
    return {
      latencies: rows
        .map((r) => ({
          endpointId: r.endpoint_id,
          eventTypeId: r.event_type,
          queue: aggregate(r.q_count, r.q_avg, r.q_min, r.q_max),
          processing: aggregate(r.p_count, r.p_avg, r.p_min, r.p_max),
        }))
        .sort(
          (a, b) =>
            ordinalCompare(a.endpointId, b.endpointId) || ordinalCompare(a.eventTypeId, b.eventTypeId),
        ),
    };
  }

  async getFailedMessageInsights(from: Date): Promise<FailedMessageInfo[]> {
    const rows = await this.since(from)
      .select('document_json')
      .where('message_type', '=', MessageType.ErrorResponse)
      .orderBy('enqueued_time', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => {
      const m = decodeDocument<MessageEntity>(row.document_json);
      const errorText = m.messageContent.errorContent?.errorText;
      return {
        endpointId: m.endpointId,
        eventTypeId: m.eventTypeId ?? '',
        errorText: errorText ? errorText : (m.deadLetterErrorDescription ?? ''),
        enqueuedTimeUtc: m.enqueuedTimeUtc,
        eventId: m.eventId,
      };
    });
  }

  private async bucketCounts(from: Date, length: BucketLength, types: MessageType[], byEventType: boolean) {
    const width = BUCKET_MS[length];
    // Integer division floors non-negative epoch milliseconds on both engines.
    const bucket = sql<number>`(${sql.ref('enqueued_time')} / ${sql.lit(width)}) * ${sql.lit(width)}`;
    const eventType = sql<string>`coalesce(${sql.ref('event_type_id')}, '')`;
    let query = this.since(from)
      .select((eb) => [
        bucket.as('bucket'),
        'message_type',
        eventType.as('event_type'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('message_type', 'in', types)
      .groupBy([bucket, 'message_type', eventType]);
    if (byEventType) query = query.where('event_type_id', 'is not', null).where('event_type_id', '!=', '');
    const rows = await query.execute();
    return rows.map((r) => ({
      bucket: Number(r.bucket),
      type: r.message_type,
      eventType: r.event_type,
      count: Number(r.count),
    }));
  }

  async getTimeSeriesMetrics({
    from,
    substringLength,
    bucketLabel,
  }: TimeSeriesRequest): Promise<TimeSeriesResult> {
    const length = bucketLength(substringLength);
    const width = BUCKET_MS[length];
    const counts = await this.bucketCounts(
      from,
      length,
      [MessageType.EventRequest, MessageType.ResolutionResponse, MessageType.ErrorResponse],
      false,
    );
    const start = Math.floor(toMs(from) / width) * width;
    const end = Math.max(this.context.clock.now(), ...counts.map((c) => c.bucket));
    const buckets = new Map<number, { published: number; handled: number; failed: number }>();
    for (let t = start; t <= end; t += width) buckets.set(t, { published: 0, handled: 0, failed: 0 });
    for (const c of counts) {
      const b = buckets.get(c.bucket) ?? { published: 0, handled: 0, failed: 0 };
      if (c.type === MessageType.EventRequest) b.published += c.count;
      else if (c.type === MessageType.ResolutionResponse) b.handled += c.count;
      else b.failed += c.count;
      buckets.set(c.bucket, b);
    }
    return {
      bucketSize: bucketLabel,
      dataPoints: [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([t, b]) => ({ timestamp: bucketKey(t, length), ...b })),
    };
  }

  async getEndpointTimeSeriesMetrics({
    from,
    substringLength,
    bucketLabel,
  }: TimeSeriesRequest): Promise<EndpointTimeSeriesResult> {
    const length = bucketLength(substringLength);
    const width = BUCKET_MS[length];
    const bucket = sql<number>`(${sql.ref('enqueued_time')} / ${sql.lit(width)}) * ${sql.lit(width)}`;
    const producer = sql<string>`coalesce(nullif(${sql.ref('from_address')}, ''), ${sql.ref('endpoint_id')})`;
    const countOf = (type: MessageType) =>
      sql<number>`sum(case when ${sql.ref('message_type')} = ${type} then 1 else 0 end)`;
    const [published, outcomes] = await Promise.all([
      this.since(from)
        .select((eb) => [bucket.as('bucket'), producer.as('endpoint'), eb.fn.countAll<number>().as('count')])
        .where('message_type', '=', MessageType.EventRequest)
        .groupBy([bucket, producer])
        .execute(),
      this.since(from)
        .select((eb) => [
          bucket.as('bucket'),
          'endpoint_id',
          countOf(MessageType.ResolutionResponse).as('handled'),
          countOf(MessageType.ErrorResponse).as('failed'),
          eb.fn.count<number>('processing_time_ms').as('p_count'),
          eb.fn.avg<number>('processing_time_ms').as('p_avg'),
          eb.fn.min<number>('processing_time_ms').as('p_min'),
          eb.fn.max<number>('processing_time_ms').as('p_max'),
        ])
        .where('message_type', 'in', OUTCOME_TYPES)
        .groupBy([bucket, 'endpoint_id'])
        .execute(),
    ]);
    const buckets = new Map<
      string,
      { -readonly [K in keyof EndpointTimeSeriesBucket]: EndpointTimeSeriesBucket[K] }
    >();
    const bucketOf = (ms: unknown, endpointId: string) => {
      const timestamp = bucketKey(Number(ms), length);
      const key = `${timestamp}\u0000${endpointId}`;
      const found = buckets.get(key) ?? {
        timestamp,
        endpointId,
        published: 0,
        handled: 0,
        failed: 0,
        processing: { count: 0, avgMs: 0, minMs: 0, maxMs: 0 },
      };
      buckets.set(key, found);
      return found;
    };
    for (const row of published) bucketOf(row.bucket, row.endpoint).published += Number(row.count);
    for (const row of outcomes) {
      const found = bucketOf(row.bucket, row.endpoint_id);
      found.handled += Number(row.handled);
      found.failed += Number(row.failed);
      if (Number(row.p_count) > 0)
        found.processing = {
          count: Number(row.p_count),
          avgMs: Number(row.p_avg),
          minMs: Number(row.p_min),
          maxMs: Number(row.p_max),
        };
    }
    return {
      bucketSize: bucketLabel,
      dataPoints: [...buckets.values()].sort(
        (a, b) => ordinalCompare(a.timestamp, b.timestamp) || ordinalCompare(a.endpointId, b.endpointId),
      ),
    };
  }

  async getEventTypeTimeSeriesMetrics({
    from,
    substringLength,
    bucketLabel,
  }: TimeSeriesRequest): Promise<EventTypeTimeSeriesResult> {
    const length = bucketLength(substringLength);
    const counts = await this.bucketCounts(from, length, [MessageType.EventRequest], true);
    const series = new Map<string, Map<number, number>>();
    for (const c of counts) {
      const points = series.get(c.eventType) ?? new Map<number, number>();
      points.set(c.bucket, (points.get(c.bucket) ?? 0) + c.count);
      series.set(c.eventType, points);
    }
    return {
      bucketSize: bucketLabel,
      series: [...series.entries()]
        .map(([eventTypeId, points]) => ({
          eventTypeId,
          total: [...points.values()].reduce((sum, n) => sum + n, 0),
          dataPoints: [...points.entries()]
            .sort(([a], [b]) => a - b)
            .map(([t, published]) => ({ timestamp: bucketKey(t, length), published })),
        }))
        .sort((a, b) => b.total - a.total || ordinalCompare(a.eventTypeId, b.eventTypeId)),
    };
  }
}
