import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, ok } from '../api.js';
import { type ChartSeries, SeriesChart } from '../components/SeriesChart.js';

const PERIODS = ['1h', '12h', '1d', '3d', '7d', '30d'] as const;
type Period = (typeof PERIODS)[number];
type Series = Answer<'/api/metrics/endpoint-timeseries'>;
type Point = Series['endpoints'][number]['points'][number];

function seriesOf(data: Series, value: (p: Point) => number | null): ChartSeries[] {
  return data.endpoints.map((e) => ({ name: e.endpointId, values: e.points.map(value) }));
}

function runningNote(data: Series): string | null {
  const last = data.buckets.at(-1);
  if (!last?.partial) return null;
  const unit = data.bucketSize === 'day' ? 3_600_000 : data.bucketSize === 'hour' ? 60_000 : 1000;
  const name = data.bucketSize === 'day' ? 'h' : data.bucketSize === 'hour' ? 'min' : 's';
  return `The hollow points are the running ${data.bucketSize}: ${Math.floor(last.elapsedMs / unit)} of ${Math.round(data.bucketMs / unit)} ${name} counted so far, so they are not part of the lines.`;
}

export function MetricsPage() {
  // The last hour by default: a fresh stack has no day of history to show (23 flat hours said nothing).
  const [period, setPeriod] = useState<Period>('1h');
  const series = useQuery({
    queryKey: ['metrics', 'endpoint-timeseries', period],
    queryFn: () => ok(api.GET('/api/metrics/endpoint-timeseries', { params: { query: { period } } })),
  });
  const latency = useQuery({
    queryKey: ['metrics', 'latency', period],
    queryFn: () => ok(api.GET('/api/metrics/latency', { params: { query: { period } } })),
  });
  const data = series.data;
  const total = (key: 'published' | 'handled' | 'failed') =>
    (data?.endpoints ?? []).reduce((n, e) => n + e.points.reduce((m, p) => m + p[key], 0), 0);
  const per = data ? `per ${data.bucketSize}` : '';
  return (
    <section>
      <h1>Metrics</h1>
      <div className="filters">
        {PERIODS.map((p) => (
          <button type="button" key={p} className={p === period ? 'active' : ''} onClick={() => setPeriod(p)}>
            {p}
          </button>
        ))}
      </div>
      {series.error && <p className="error">{series.error.message}</p>}
      <div className="tiles">
        <div className="tile">
          <b>{total('published')}</b> published
        </div>
        <div className="tile">
          <b>{total('handled')}</b> handled
        </div>
        <div className="tile tile-failed">
          <b>{total('failed')}</b> failed
        </div>
      </div>
      {data && (
        <>
          <SeriesChart
            title="Throughput: events handled, by endpoint"
            unit={`events ${per}`}
            bucketSize={data.bucketSize}
            buckets={data.buckets}
            series={seriesOf(data, (p) => p.handled)}
            testId="chart-throughput"
          />
          <SeriesChart
            title="Failures, by endpoint"
            unit={`failures ${per}`}
            bucketSize={data.bucketSize}
            buckets={data.buckets}
            series={seriesOf(data, (p) => p.failed)}
            testId="chart-failures"
          />
          <SeriesChart
            title="Processing time, average by endpoint"
            unit="ms"
            bucketSize={data.bucketSize}
            buckets={data.buckets}
            series={seriesOf(data, (p) => p.processingAvgMs)}
            testId="chart-latency"
          />
          {runningNote(data) && <p className="hint">{runningNote(data)}</p>}
        </>
      )}
      <h2>Latency by route</h2>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>Event type</th>
              <th>Queue avg / max (ms)</th>
              <th>Processing avg / max (ms)</th>
              <th>Count</th>
            </tr>
          </thead>
          <tbody>
            {(latency.data?.latencies ?? []).map((l) => (
              <tr key={`${l.endpointId}-${l.eventTypeId}`}>
                <td>{l.endpointId}</td>
                <td>{l.eventTypeId}</td>
                <td>
                  {l.queue.avgMs} / {l.queue.maxMs}
                </td>
                <td>
                  {l.processing.avgMs} / {l.processing.maxMs}
                </td>
                <td>{l.processing.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
