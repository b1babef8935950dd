import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';

/** The latest result of every custom check the endpoints' hosts report (`EndpointHostOptions.customChecks`). */
export function CustomChecksTable() {
  const checks = useQuery({
    queryKey: ['custom-checks'],
    queryFn: () => ok(api.GET('/api/custom-checks')),
    refetchInterval: 3_000,
  });
  return (
    <section className="card" aria-label="custom checks">
      <h2>Custom checks</h2>
      {checks.error && <p className="error">{String((checks.error as Error).message)}</p>}
      {checks.data?.length === 0 && <p>No endpoint reports a custom check.</p>}
      {checks.data && checks.data.length > 0 && (
        <table className="data-table" data-testid="custom-checks">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>Check</th>
              <th>Status</th>
              <th>Reason</th>
              <th>Checked</th>
            </tr>
          </thead>
          <tbody>
            {checks.data.map((c) => (
              <tr key={`${c.endpointId}/${c.name}`} data-check={c.name} data-endpoint={c.endpointId}>
                <td>{c.endpointId}</td>
                <td>{c.name}</td>
                <td data-testid="check-status" className={c.healthy ? undefined : 'error'}>
                  {c.healthy ? 'Healthy' : 'Unhealthy'}
                </td>
                <td data-testid="check-reason">{c.reason ?? '—'}</td>
                <td title={c.checkedAt}>{c.ageSeconds} s ago</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
