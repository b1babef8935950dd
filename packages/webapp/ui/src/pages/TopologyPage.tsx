import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';

/** Producers on the left, consumers on the right, one labelled edge per route. */
export function TopologyPage() {
  const { data, error } = useQuery({ queryKey: ['topology'], queryFn: () => ok(api.GET('/api/topology')) });
  if (error) return <p className="error">{error.message}</p>;
  const endpoints = data?.endpoints ?? [];
  const routes = data?.routes ?? [];
  const rowHeight = 40;
  const height = Math.max(1, endpoints.length) * rowHeight + 20;
  const yOf = (id: string) => endpoints.findIndex((e) => e.id === id) * rowHeight + 30;
  return (
    <section>
      <h1>Topology</h1>
      <svg viewBox={`0 0 720 ${height}`} className="chart" role="img" aria-label="routes between endpoints">
        {routes.map((r) => (
          <g key={`${r.source}-${r.eventTypeId}-${r.target}`}>
            <line x1={160} y1={yOf(r.source)} x2={560} y2={yOf(r.target)} stroke="#64748b" />
            <text x={360} y={(yOf(r.source) + yOf(r.target)) / 2 - 4} fontSize={11} textAnchor="middle">
              {r.eventTypeId}
            </text>
          </g>
        ))}
        {endpoints.map((e) => (
          <g key={e.id}>
            <text x={150} y={yOf(e.id) + 4} textAnchor="end" fontSize={13}>
              {e.id}
            </text>
            <text x={570} y={yOf(e.id) + 4} fontSize={13}>
              {e.id}
            </text>
          </g>
        ))}
      </svg>
    </section>
  );
}
