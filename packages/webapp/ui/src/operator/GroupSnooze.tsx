import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.js';

const CHOICES = [
  { minutes: 60, label: '1 h' },
  { minutes: 240, label: '4 h' },
  { minutes: 1_440, label: '1 day' },
];

/**
 * Snoozes the alerts of one failure cause on its endpoints: new, updated and resolved notices, and the sessions
 * it blocks, wait until the snooze ends (the server audits each snooze and each early end).
 */
export function GroupSnooze({
  signature,
  endpointIds,
}: {
  signature: string;
  endpointIds: readonly string[];
}) {
  const client = useQueryClient();
  const [minutes, setMinutes] = useState(60);
  const [error, setError] = useState<string | null>(null);
  const snoozes = useQueries({
    queries: endpointIds.map((endpointId) => ({
      queryKey: ['alert-snoozes', endpointId],
      queryFn: () =>
        ok(api.GET('/api/endpoints/{endpointId}/alert-snoozes', { params: { path: { endpointId } } })),
    })),
  });
  const active = snoozes.flatMap((q) => q.data ?? []).filter((s) => s.signature === signature);
  const refresh = () => client.invalidateQueries({ queryKey: ['alert-snoozes'] });
  const snooze = useMutation({
    mutationFn: () =>
      Promise.all(
        endpointIds.map((endpointId) =>
          ok(
            api.POST('/api/endpoints/{endpointId}/alert-snoozes', {
              params: { path: { endpointId } },
              body: { signature, minutes },
            }),
          ),
        ),
      ),
    onSuccess: refresh,
    onError: (e) => setError(e.message),
  });
  const wake = useMutation({
    mutationFn: () =>
      Promise.all(
        active.map((s) =>
          ok(
            api.DELETE('/api/endpoints/{endpointId}/alert-snoozes', {
              params: { path: { endpointId: s.endpointId }, query: { signature } },
            }),
          ),
        ),
      ),
    onSuccess: refresh,
    onError: (e) => setError(e.message),
  });
  if (active.length > 0) {
    const until = Math.max(...active.map((s) => Date.parse(s.until)));
    return (
      <span className="snooze" data-testid="snoozed">
        <span title={`by ${active[0]!.by}`}>Alerts snoozed until {new Date(until).toLocaleString()}</span>{' '}
        <button type="button" onClick={() => wake.mutate()}>
          End snooze
        </button>
        {error && <span className="error"> {error}</span>}
      </span>
    );
  }
  return (
    <span className="snooze">
      <select
        aria-label="Snooze alerts for"
        value={minutes}
        onChange={(e) => setMinutes(Number(e.target.value))}
      >
        {CHOICES.map((c) => (
          <option key={c.minutes} value={c.minutes}>
            {c.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => snooze.mutate()} disabled={snooze.isPending}>
        Snooze alerts
      </button>
      {error && <span className="error"> {error}</span>}
    </span>
  );
}
