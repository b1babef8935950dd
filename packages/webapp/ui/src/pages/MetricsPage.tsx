import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, ok } from '../api.js';

type Point = Answer<'/api/metrics/timeseries'>['dataPoints'][number];
const PERIODS = ['1h', '12h', '1d', '3d', '7d', '30d'] as const;
type Period = (typeof PERIODS)[number];

const SERIES = [
  ['published', '#3b82f6'],
  ['handled', '#10b981'],
  ['failed', '#ef4444'],
] as const;

/** A plain SVG line chart: one polyline per series, scaled to the largest value. */
function Chart({ points }: { points: Point[] }) {
  const width = 720;
  const height = 200;
  const max = Math.max(1, ...points.flatMap((p) => [p.published, p.handled, p.failed]));
  const x = (i: number) => (points.length <= 1 ? 0 : (i / (points.length - 1)) * width);
  const y = (v: number) => height - (v / max) * height;
  return (
    <svg
      viewBox={`0 0 ${width} ${height + 20}`}
      className="chart"
      role="img"
      aria-label="published, handled and failed over time"
    >
      {SERIES.map(([key, color]) => (
        <polyline
          key={key}
          fill="none"
          stroke={color}
          strokeWidth={2}
          points={points.map((p, i) => `${x(i)},${y(p[key])}`).join(' ')}
        />
      ))}
      <text x={0} y={height + 16} fontSize={11}>
        {points[0]?.timestamp}
      </text>
      <text x={width} y={height + 16} fontSize={11} textAnchor="end">
        {points.at(-1)?.timestamp}
      </text>
    </svg>
  );
}

export function MetricsPage() {
  const [period, setPeriod] = useState<Period>('1d');
  const series = useQuery({
    queryKey: ['metrics', 'timeseries', period],
    queryFn: () => ok(api.GET('/api/metrics/timeseries', { params: { query: { period } } })),
  });
  const latency = useQuery({
    queryKey: ['metrics', 'latency', period],
    queryFn: () => ok(api.GET('/api/metrics/latency', { params: { query: { period } } })),
  });
  const points = series.data?.dataPoints ?? [];
  const total = (key: 'published' | 'handled' | 'failed') => points.reduce((n, p) => n + p[key], 0);
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
      <div className="tiles">
        {SERIES.map(([key, color]) => (
          <div className="tile" key={key} style={{ borderColor: color }}>
            <b>{total(key)}</b> {key}
          </div>
        ))}
      </div>
      <Chart points={points} />
      <h2>Latency by route</h2>
      <table className="table">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>Event type</th>
            <th>Queue avg / max ms</th>
            <th>Processing avg / max ms</th>
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
    </section>
  );
}
