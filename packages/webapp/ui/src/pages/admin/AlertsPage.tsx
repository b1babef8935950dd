import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, ok } from '../../api.js';
import { AdminNav } from '../../components/AdminNav.js';
import { AlertDeliveries } from './AlertDeliveries.js';
import { useAdminAction } from './admin-action.js';
import { NewAlertForm } from './NewAlertForm.js';

type Subscription = Answer<'/api/alert-subscriptions'>['subscriptions'][number];

const TRIGGER_LABEL: Record<string, string> = {
  NewFailureGroup: 'new failure group',
  SessionBlocked: 'session blocked',
  HeartbeatLost: 'heartbeat lost',
};

function triggers(s: Subscription): string {
  return s.triggers
    .map((t) =>
      t === 'SessionBlocked' ? `session blocked > ${s.blockedMinutes} min` : (TRIGGER_LABEL[t] ?? t),
    )
    .join(', ');
}

/** Alert subscriptions per endpoint: what they watch, where they go, and how their last delivery went. */
export function AlertsPage() {
  const list = useQuery({
    queryKey: ['alerts'],
    queryFn: () => ok(api.GET('/api/alert-subscriptions')),
    refetchInterval: 5_000,
  });
  const [open, setOpen] = useState<string | null>(null);
  const { notice, error, run } = useAdminAction(['alerts']);
  const path = (s: Subscription) => ({
    params: { path: { endpointId: s.endpointId, subscriptionId: s.id } },
  });
  const remove = (s: Subscription) => {
    if (!window.confirm(`Stop sending ${triggers(s)} alerts of ${s.endpointId} to ${s.target}?`)) return;
    void run('The subscription was deleted.', () =>
      ok(api.DELETE('/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}', path(s))),
    );
  };
  const test = (s: Subscription) =>
    run(`A test alert to ${s.target} is queued.`, () =>
      ok(api.POST('/api/endpoints/{endpointId}/alert-subscriptions/{subscriptionId}/test', path(s))),
    );

  return (
    <section>
      <h1>Administration</h1>
      <AdminNav current="/admin/alerts" />
      {notice && <p className="notice">{notice}</p>}
      {error && <p className="error">{error}</p>}
      {list.error && <p className="error">{list.error.message}</p>}
      <table className="table" data-testid="alert-subscriptions">
        <thead>
          <tr>
            <th>Endpoint</th>
            <th>When</th>
            <th>Sent to</th>
            <th>Last delivery</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {(list.data?.subscriptions ?? []).map((s) => (
            <tr key={s.id} data-subscription-id={s.id}>
              <td>{s.endpointId}</td>
              <td>
                {triggers(s)}
                {s.eventTypes.length > 0 && (
                  <div className="hint">event types: {s.eventTypes.join(', ')}</div>
                )}
                {s.payload && <div className="hint">containing “{s.payload}”</div>}
                <div className="hint" data-testid="alert-pacing">
                  updates every {s.digestMinutes ?? 5} min at most, {s.maxPerHour ?? 30} alerts/hour at most
                </div>
              </td>
              <td>
                {s.channel === 'mail' ? 'e-mail' : 'webhook'} {s.target}
                {s.signed && <div className="hint">signed (HMAC-SHA256)</div>}
              </td>
              <td data-testid="last-delivery">
                {s.lastDelivery ? (
                  <>
                    <span data-status={s.lastDelivery.status}>{s.lastDelivery.status}</span>
                    {` · ${s.lastDelivery.attempts} attempt${s.lastDelivery.attempts === 1 ? '' : 's'} · ${new Date(
                      s.lastDelivery.createdAt,
                    ).toLocaleString()}`}
                    {s.lastDelivery.lastError && <div className="error">{s.lastDelivery.lastError}</div>}
                  </>
                ) : (
                  'none yet'
                )}
              </td>
              <td>
                <div className="actions">
                  <button type="button" onClick={() => void test(s)}>
                    Send test
                  </button>
                  <button type="button" onClick={() => setOpen(open === s.id ? null : s.id)}>
                    {open === s.id ? 'Hide deliveries' : 'Deliveries'}
                  </button>
                  <button type="button" className="danger" onClick={() => remove(s)}>
                    Delete
                  </button>
                </div>
                {open === s.id && <AlertDeliveries endpointId={s.endpointId} subscriptionId={s.id} />}
              </td>
            </tr>
          ))}
          {list.data && list.data.subscriptions.length === 0 && (
            <tr>
              <td colSpan={5} className="empty">
                No alert subscriptions yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <NewAlertForm mailConfigured={list.data?.mailConfigured ?? false} onDone={run} />
    </section>
  );
}
