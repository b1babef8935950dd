import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { StatusBadge } from '../components/StatusBadge.js';

const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

function age(seconds: number | null): string {
  if (seconds === null) return 'never';
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

export function HealthPage() {
  const heartbeats = useQuery({
    queryKey: ['health', 'heartbeat'],
    queryFn: () => ok(api.GET('/api/heartbeat/overview')),
    // Late and Off are a matter of time passing, not of a stored change: re-read on a timer too.
    refetchInterval: 15_000,
  });
  const services = useQuery({
    queryKey: ['health', 'services'],
    queryFn: () => ok(api.GET('/api/health/services')),
  });
  return (
    <section>
      <h1>Heartbeat and service health</h1>
      <h2>Platform services</h2>
      <table className="table" data-testid="services">
        <thead>
          <tr>
            <th>Service</th>
            <th>Status</th>
            <th>Version</th>
            <th>Last seen</th>
            <th>Round trip</th>
          </tr>
        </thead>
        <tbody>
          {(services.data ?? []).map((s) => (
            <tr key={s.serviceId}>
              <td>{s.serviceId}</td>
              <td>
                <StatusBadge status={s.status} />
              </td>
              <td>{s.version}</td>
              <td>{when(s.lastSeenUtc)}</td>
              <td>{s.roundTripMs === null ? '—' : `${s.roundTripMs} ms`}</td>
            </tr>
          ))}
          {(services.data ?? []).length === 0 && (
            <tr>
              <td className="empty" colSpan={5}>
                No service has reported yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <h2>Endpoint heartbeat</h2>
      <table className="table">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>Status</th>
            <th>Last seen</th>
            <th>Last answer</th>
            <th>Round trip</th>
            <th>SDK</th>
          </tr>
        </thead>
        <tbody>
          {(heartbeats.data ?? []).map((h) => (
            <tr key={h.endpointId}>
              <td>{h.endpointId}</td>
              <td>
                <StatusBadge status={h.status} />
              </td>
              <td data-testid="last-seen">{age(h.lastSeenAgeSeconds)}</td>
              <td>{when(h.lastEndTime)}</td>
              <td>{h.roundTripMs === null ? '—' : `${h.roundTripMs} ms`}</td>
              <td>{h.sdkVersion ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
