import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api.js';

/** Every delivery of one subscription with each attempt's outcome (newest delivery first). */
export function AlertDeliveries({
  endpointId,
  subscriptionId,
}: {
  endpointId: string;
  subscriptionId: string;
}) {
  const deliveries = useQuery({
    queryKey: ['alerts', 'deliveries', subscriptionId],
    queryFn: () =>
      ok(
        api.GET('/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}/deliveries', {
          params: { path: { endpointId, subscriptionId } },
        }),
      ),
    refetchInterval: 3_000,
  });
  if (deliveries.error) return <p className="error">{deliveries.error.message}</p>;
  const rows = deliveries.data ?? [];
  if (rows.length === 0) return <p className="hint">No deliveries yet.</p>;
  return (
    <ol className="timeline" data-testid="deliveries">
      {rows.map((d) => (
        <li key={d.id} data-status={d.status}>
          <b>{d.status}</b> {d.trigger} · {d.summary}
          {d.nextAttemptAt && (
            <div className="hint">next attempt {new Date(d.nextAttemptAt).toLocaleTimeString()}</div>
          )}
          <ul>
            {d.attemptLog.map((a) => (
              <li key={a.attempt} className={a.ok ? 'ok' : 'error'}>
                attempt {a.attempt} at {new Date(a.at).toLocaleTimeString()}: {a.ok ? 'delivered' : a.error} (
                {a.durationMs} ms)
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
