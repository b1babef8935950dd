import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { durationText } from '../operator/bulk-types.js';
import { Link } from './Link.js';
import { StatusBadge } from './StatusBadge.js';

/** A session blocked by one of these has to be resolved first: replaying its parked events would overtake it. */
const FAILURE_STATUSES = new Set(['Failed', 'DeadLettered', 'Unsupported']);

/** Blocked sessions, and why at a glance: the blocking event's error, for how long, and how many are parked. */
export function BlockedSessions({
  endpointId,
  onNotice,
}: {
  endpointId: string;
  onNotice: (text: string) => void;
}) {
  const enc = encodeURIComponent(endpointId);
  const blocked = useQuery({
    queryKey: ['endpoint', endpointId, 'blocked-sessions'],
    queryFn: () =>
      ok(api.GET('/api/endpoints/{endpointId}/blocked-sessions', { params: { path: { endpointId } } })),
  });
  const reprocess = useMutation({
    mutationFn: (session: string) =>
      ok(
        api.POST('/api/endpoints/{endpointId}/sessions/{sessionId}/reprocess-deferred', {
          params: { path: { endpointId, sessionId: session } },
        }),
      ),
    onSuccess: () => onNotice('Replay of deferred messages requested.'),
    onError: (error) => onNotice(error.message),
  });
  const rows = blocked.data ?? [];
  return (
    <table className="table" data-testid="blocked-sessions">
      <thead>
        <tr>
          <th>Session</th>
          <th>Blocked by</th>
          <th>Why</th>
          <th>Blocked for</th>
          <th>Waiting</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={s.sessionId} data-session-id={s.sessionId}>
            <td>{s.sessionId}</td>
            <td>
              <Link to={`/endpoints/${enc}/events/${encodeURIComponent(s.blockingEventId)}`}>
                {s.blockingEventId}
              </Link>{' '}
              <StatusBadge status={s.blockingStatus} retry={s.retry} />
            </td>
            <td className="why" data-testid="blocking-error">
              {s.blockingErrorType && <b>{s.blockingErrorType}: </b>}
              {s.blockingErrorText ?? '—'}
            </td>
            <td title={s.blockedSince} data-testid="blocked-for">
              {durationText(s.blockedForMs)}
            </td>
            <td data-testid="parked">
              {s.deferredCount} deferred, {s.pendingCount} pending
            </td>
            <td>
              {s.deferredCount > 0 && s.retry && (
                <span className="hint">
                  Held for the automatic retry; the parked ones follow when it succeeds.
                </span>
              )}
              {s.deferredCount > 0 && !s.retry && FAILURE_STATUSES.has(s.blockingStatus) && (
                <span className="hint">
                  Resubmit or skip the blocking event; the parked ones then follow in order.
                </span>
              )}
              {s.deferredCount > 0 && !FAILURE_STATUSES.has(s.blockingStatus) && (
                <button type="button" onClick={() => reprocess.mutate(s.sessionId)}>
                  Reprocess deferred
                </button>
              )}
            </td>
          </tr>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={6} className="empty">
              No blocked sessions.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
