import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { iso } from '../http/dto.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { endpointSeries } from '../metrics/endpoint-series.js';

const PERIODS = {
  '1h': 3_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
} as const;
type Period = keyof typeof PERIODS;
const PeriodQuery = z.object({ period: z.enum(Object.keys(PERIODS) as [Period, ...Period[]]).default('1d') });

/** Bucket width per period: minutes for an hour, days for a month, hours otherwise. */
function bucketOf(period: Period): { length: number; label: string; widthMs: number } {
  if (period === '1h') return { length: 16, label: 'minute', widthMs: 60_000 };
  if (period === '30d') return { length: 10, label: 'day', widthMs: 86_400_000 };
  return { length: 13, label: 'hour', widthMs: 3_600_000 };
}

const IsoTime = z.string().describe('ISO-8601 UTC timestamp');
const Count = z.object({ endpointId: z.string(), eventTypeId: z.string(), count: z.number() });
const EndpointSeriesResponse = z.object({
  bucketSize: z.enum(['minute', 'hour', 'day']),
  bucketMs: z.number(),
  buckets: z.array(
    z.object({
      start: IsoTime,
      end: IsoTime,
      partial: z.boolean().describe('the bucket is still running: its counts cover elapsedMs of bucketMs'),
      elapsedMs: z.number(),
    }),
  ),
  endpoints: z.array(
    z.object({
      endpointId: z.string(),
      points: z
        .array(
          z.object({
            published: z.number(),
            handled: z.number(),
            failed: z.number(),
            processingAvgMs: z.number().nullable().describe('null when the bucket had no outcome'),
            processingMaxMs: z.number().nullable(),
          }),
        )
        .describe('one point per bucket, in the order of buckets'),
    }),
  ),
});

const Latency = z.object({ count: z.number(), avgMs: z.number(), minMs: z.number(), maxMs: z.number() });

export function metricsRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, auditLog, clock } = deps;
  const since = (period: Period) => new Date(clock.now() - PERIODS[period]);
  const round = (n: number) => Math.round(n * 10) / 10;

  return [
    defineRoute({
      method: 'GET',
      url: '/api/metrics/overview',
      tag: 'Metrics',
      summary: 'Published, handled and failed counts per endpoint and event type (site Reader)',
      access: 'authenticated',
      query: PeriodQuery,
      response: z.object({ published: z.array(Count), handled: z.array(Count), failed: z.array(Count) }),
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const m = await store.getEndpointMetrics(since(query.period));
        return { published: [...m.published], handled: [...m.handled], failed: [...m.failed] };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/metrics/latency',
      tag: 'Metrics',
      summary: 'Queue and processing latency per endpoint and event type (site Reader)',
      access: 'authenticated',
      query: PeriodQuery,
      response: z.object({
        latencies: z.array(
          z.object({ endpointId: z.string(), eventTypeId: z.string(), queue: Latency, processing: Latency }),
        ),
      }),
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const r = await store.getEndpointLatencyMetrics(since(query.period));
        const fix = (l: z.input<typeof Latency>) => ({
          count: l.count,
          avgMs: round(l.avgMs),
          minMs: round(l.minMs),
          maxMs: round(l.maxMs),
        });
        return {
          latencies: r.latencies.map((l) => ({ ...l, queue: fix(l.queue), processing: fix(l.processing) })),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/metrics/timeseries',
      tag: 'Metrics',
      summary: 'Published / handled / failed per time bucket (site Reader)',
      access: 'authenticated',
      query: PeriodQuery,
      response: z.object({
        bucketSize: z.string(),
        dataPoints: z.array(
          z.object({ timestamp: z.string(), published: z.number(), handled: z.number(), failed: z.number() }),
        ),
      }),
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const bucket = bucketOf(query.period);
        const r = await store.getTimeSeriesMetrics({
          from: since(query.period),
          substringLength: bucket.length,
          bucketLabel: bucket.label,
        });
        return { bucketSize: r.bucketSize, dataPoints: [...r.dataPoints] };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/metrics/endpoint-timeseries',
      tag: 'Metrics',
      summary:
        'Per endpoint and time bucket: published, handled, failed and processing time; the running bucket is marked partial (site Reader)',
      access: 'authenticated',
      query: PeriodQuery,
      response: EndpointSeriesResponse,
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const bucket = bucketOf(query.period);
        const from = since(query.period);
        const stored = await store.getEndpointTimeSeriesMetrics({
          from,
          substringLength: bucket.length,
          bucketLabel: bucket.label,
        });
        const series = endpointSeries(stored.dataPoints, {
          fromMs: from.getTime(),
          nowMs: clock.now(),
          widthMs: bucket.widthMs,
        });
        return { bucketSize: bucket.label as 'minute' | 'hour' | 'day', bucketMs: bucket.widthMs, ...series };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/metrics/failed-insights',
      tag: 'Metrics',
      summary: 'Failures grouped by error text (site Reader)',
      access: 'authenticated',
      query: PeriodQuery,
      response: z.object({
        totalFailed: z.number(),
        groups: z.array(
          z.object({
            errorText: z.string(),
            count: z.number(),
            endpoints: z.array(z.string()),
            eventTypes: z.array(z.string()),
            latestOccurrence: z.string().nullable(),
            exampleEventId: z.string(),
          }),
        ),
      }),
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const failures = await store.getFailedMessageInsights(since(query.period));
        const groups = new Map<
          string,
          {
            errorText: string;
            count: number;
            endpoints: Set<string>;
            eventTypes: Set<string>;
            latest: Date | null;
            exampleEventId: string;
          }
        >();
        for (const f of failures) {
          const key = f.errorText.slice(0, 200);
          const group = groups.get(key) ?? {
            errorText: key,
            count: 0,
            endpoints: new Set(),
            eventTypes: new Set(),
            latest: null,
            exampleEventId: f.eventId,
          };
          group.count += 1;
          group.endpoints.add(f.endpointId);
          group.eventTypes.add(f.eventTypeId);
          if (!group.latest || f.enqueuedTimeUtc > group.latest) group.latest = f.enqueuedTimeUtc;
          groups.set(key, group);
        }
        return {
          totalFailed: failures.length,
          groups: [...groups.values()]
            .sort((a, b) => b.count - a.count)
            .map((g) => ({
              errorText: g.errorText,
              count: g.count,
              endpoints: [...g.endpoints],
              eventTypes: [...g.eventTypes],
              latestOccurrence: iso(g.latest),
              exampleEventId: g.exampleEventId,
            })),
        };
      },
    }),
  ];
}
