import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.js';
import { ErrorDetails } from '../components/ErrorDetails.js';
import { EventComments } from '../components/EventComments.js';
import { AuditTable, HistoryTimeline } from '../components/EventRecords.js';
import { Link } from '../components/Link.js';
import { OutOfOrderWarning, resubmitRunsOutOfOrder } from '../components/OutOfOrderWarning.js';
import { PayloadDiff } from '../components/PayloadDiff.js';
import { PayloadProblems, usePayloadProblems } from '../components/PayloadProblems.js';
import { retryText, StatusBadge } from '../components/StatusBadge.js';
import { navigate } from '../router.js';

/** The optional comment an operator leaves for the audit of a resubmit or skip. */
function ActionCommentField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <textarea
      aria-label="action comment"
      placeholder="comment for the audit (optional)"
      rows={2}
      maxLength={2000}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** What the operator reads after an action was accepted (the bus does the rest; the page updates live). */
const SENT_NOTICE = {
  resubmit: 'Resubmit sent: the event is handled again.',
  resubmitWithChanges: 'Edited payload sent: the event is handled again with your changes.',
  skip: 'Skip sent: the session continues with the next event.',
  completeHandoff: 'Handoff marked complete.',
  failHandoff: 'Handoff marked failed.',
  reconcile: 'Event reconciled as completed.',
  reprocessDeferred: 'Replay requested.',
} as const;

/** One operator action: the typed call that sends it and the notice shown once it was accepted. */
interface Action {
  readonly notice: string;
  readonly send: () => Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

function pretty(json: string | null): string {
  if (!json) return '';
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function EventDetailsPage({ endpointId, eventId }: { endpointId: string; eventId: string }) {
  const client = useQueryClient();
  const path = { endpointId, eventId };
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'resubmit' | 'skip' | null>(null);
  const [actionComment, setActionComment] = useState('');
  const details = useQuery({
    queryKey: ['endpoint', endpointId, 'event', eventId],
    queryFn: () => ok(api.GET('/api/endpoints/{endpointId}/events/{eventId}', { params: { path } })),
  });
  const history = useQuery({
    queryKey: ['endpoint', endpointId, 'event', eventId, 'history'],
    queryFn: () => ok(api.GET('/api/endpoints/{endpointId}/events/{eventId}/history', { params: { path } })),
  });
  const audits = useQuery({
    queryKey: ['endpoint', endpointId, 'event', eventId, 'audits'],
    queryFn: () => ok(api.GET('/api/endpoints/{endpointId}/events/{eventId}/audits', { params: { path } })),
  });
  const sessionId = details.data?.event.sessionId;
  const siblings = useQuery({
    queryKey: ['endpoint', endpointId, 'session-events', sessionId],
    enabled: sessionId !== undefined,
    queryFn: () =>
      ok(
        api.GET('/api/endpoints/{endpointId}/events', {
          params: { path: { endpointId }, query: { sessionId: sessionId ?? '', pageSize: 50 } },
        }),
      ),
  });

  const act = useMutation({
    mutationFn: (action: Action) => ok(action.send()),
    onSuccess: (_data, action) => {
      setMessage(action.notice);
      setEditing(null);
      setConfirming(null);
      setActionComment('');
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
    },
    onError: (error) => setMessage(error.message),
  });
  // The event is gone: go back to its endpoint and say so there, instead of a bare "not found" here.
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/endpoints/{endpointId}/events/{eventId}', { params: { path } })),
    onSuccess: () => {
      navigate(`/endpoints/${encodeURIComponent(endpointId)}`, `Event ${eventId} deleted.`);
      void client.invalidateQueries({ queryKey: ['endpoint', endpointId] });
    },
    onError: (error) => setMessage(error.message),
  });
  const optionalComment = () => actionComment.trim() || null;
  const payloadProblems = usePayloadProblems(
    endpointId,
    details.data?.payloadEventTypeId ?? details.data?.event.eventTypeId ?? null,
    editing,
  );

  if (details.error) return <p className="error">{details.error.message}</p>;
  if (!details.data) return <p>Loading…</p>;
  const { event, payload, allowedActions } = details.data;
  const can = (action: string) => allowedActions.includes(action);
  // Confirming the resubmit of a dead-lettered or unsupported event confirms it runs out of order.
  const acknowledgement = resubmitRunsOutOfOrder(event.status) ? { acknowledgeOutOfOrder: true } : {};

  return (
    <section>
      <p>
        <Link to={`/endpoints/${encodeURIComponent(endpointId)}`}>← {endpointId}</Link>
      </p>
      <h1>
        Event {eventId} <StatusBadge status={event.status} retry={event.retry} />
      </h1>
      {event.retry && (
        <p className="hint" data-testid="retrying">
          Retrying: {retryText(event.retry)}. The retry policy runs it again; it becomes Failed only when its
          retries are exhausted.
        </p>
      )}
      <div className="actions">
        {can('resubmit') && (
          <button type="button" onClick={() => setConfirming('resubmit')}>
            Resubmit
          </button>
        )}
        {can('resubmitWithChanges') && (
          <button type="button" onClick={() => setEditing(pretty(payload))}>
            Resubmit with changes
          </button>
        )}
        {can('skip') && (
          <button type="button" onClick={() => setConfirming('skip')}>
            Skip
          </button>
        )}
        {can('completeHandoff') && (
          <button
            type="button"
            onClick={() =>
              act.mutate({
                notice: SENT_NOTICE.completeHandoff,
                send: () =>
                  api.POST('/api/endpoints/{endpointId}/events/{eventId}/handoff/complete', {
                    params: { path },
                    body: { note: null },
                  }),
              })
            }
          >
            Complete handoff
          </button>
        )}
        {can('failHandoff') && (
          <button
            type="button"
            onClick={() => {
              const reason = window.prompt('Why did the handoff fail?');
              if (reason)
                act.mutate({
                  notice: SENT_NOTICE.failHandoff,
                  send: () =>
                    api.POST('/api/endpoints/{endpointId}/events/{eventId}/handoff/fail', {
                      params: { path },
                      body: { reason },
                    }),
                });
            }}
          >
            Fail handoff
          </button>
        )}
        {can('reconcile') && (
          <button
            type="button"
            onClick={() =>
              act.mutate({
                notice: SENT_NOTICE.reconcile,
                send: () =>
                  api.POST('/api/endpoints/{endpointId}/events/{eventId}/reconcile', {
                    params: { path },
                    body: { expectedLastMessageId: event.lastMessageId ?? '' },
                  }),
              })
            }
          >
            Reconcile (mark completed)
          </button>
        )}
        {can('reprocessDeferred') && (
          <button
            type="button"
            onClick={() =>
              act.mutate({
                notice: SENT_NOTICE.reprocessDeferred,
                send: () =>
                  api.POST('/api/endpoints/{endpointId}/sessions/{sessionId}/reprocess-deferred', {
                    params: { path: { endpointId, sessionId: event.sessionId } },
                  }),
              })
            }
          >
            Reprocess deferred
          </button>
        )}
        {can('delete') && (
          <button
            type="button"
            className="danger"
            onClick={() => window.confirm('Delete this event row? This cannot be undone.') && remove.mutate()}
          >
            Delete
          </button>
        )}
        {message && <span className="notice">{message}</span>}
      </div>
      {confirming !== null && (
        <div className="card" data-testid="confirm-action">
          <h2>{confirming === 'resubmit' ? 'Resubmit with the stored payload' : 'Skip this event'}</h2>
          {confirming === 'resubmit' && (
            <OutOfOrderWarning status={event.status} sessionId={event.sessionId} />
          )}
          <ActionCommentField value={actionComment} onChange={setActionComment} />
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                act.mutate({
                  notice: SENT_NOTICE[confirming],
                  send: () =>
                    api.POST(
                      confirming === 'skip'
                        ? '/api/endpoints/{endpointId}/events/{eventId}/skip'
                        : '/api/endpoints/{endpointId}/events/{eventId}/resubmit',
                      {
                        params: { path },
                        body: {
                          comment: optionalComment(),
                          ...(confirming === 'resubmit' ? acknowledgement : {}),
                        },
                      },
                    ),
                })
              }
            >
              Confirm {confirming}
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {editing !== null && (
        <div className="card">
          <h2>Edit payload and resubmit</h2>
          <textarea
            aria-label="payload"
            rows={12}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
          />
          <PayloadProblems problems={payloadProblems} />
          {payload && payloadProblems.length === 0 && (
            <details open>
              <summary>Changes against the stored payload</summary>
              <PayloadDiff before={payload} after={editing} testId="edit-diff" />
            </details>
          )}
          <OutOfOrderWarning status={event.status} sessionId={event.sessionId} />
          <ActionCommentField value={actionComment} onChange={setActionComment} />
          <div className="actions">
            <button
              type="button"
              disabled={payloadProblems.length > 0}
              title={
                payloadProblems.length > 0 ? 'Fix the payload first: nothing invalid is sent.' : undefined
              }
              onClick={() =>
                act.mutate({
                  notice: SENT_NOTICE.resubmitWithChanges,
                  send: () =>
                    api.POST('/api/endpoints/{endpointId}/events/{eventId}/resubmit-with-changes', {
                      params: { path },
                      body: {
                        eventJson: editing,
                        eventTypeId: details.data.payloadEventTypeId ?? undefined,
                        comment: optionalComment(),
                        ...acknowledgement,
                      },
                    }),
                })
              }
            >
              Send
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <dl className="props">
        <dt>Session</dt>
        <dd>{event.sessionId}</dd>
        <dt>Event type</dt>
        <dd>{event.eventTypeId}</dd>
        <dt>Producer</dt>
        <dd data-testid="producer">{details.data.producer ?? 'unknown'}</dd>
        <dt>Last hop</dt>
        <dd>
          {event.from} → {event.to}
        </dd>
        <dt>Correlation</dt>
        <dd>{event.correlationId}</dd>
        <dt>Last message</dt>
        <dd>{event.lastMessageId}</dd>
        <dt>Updated</dt>
        <dd>{new Date(event.updatedAt).toLocaleString()}</dd>
        {event.handoffReason && (
          <>
            <dt>Handoff</dt>
            <dd>{event.handoffReason}</dd>
          </>
        )}
      </dl>
      {event.errorContent && (
        <ErrorDetails error={event.errorContent} signature={details.data.failureSignature} />
      )}
      <h2>Payload</h2>
      <pre className="code" data-testid="payload">
        {pretty(payload)}
      </pre>
      {details.data.originalPayload && payload && details.data.originalPayload !== payload && (
        <>
          <h2>Edited against the original</h2>
          <PayloadDiff before={details.data.originalPayload} after={payload} testId="payload-diff" />
        </>
      )}
      <h2>Events in session {event.sessionId}</h2>
      <table className="table" data-testid="session-events">
        <tbody>
          {(siblings.data?.events ?? []).map((e) => (
            <tr key={e.eventId} data-event-id={e.eventId}>
              <td>
                <Link
                  to={`/endpoints/${encodeURIComponent(endpointId)}/events/${encodeURIComponent(e.eventId)}`}
                >
                  {e.eventId}
                </Link>
              </td>
              <td>
                <StatusBadge status={e.status} retry={e.retry} />
              </td>
              <td>{new Date(e.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>History</h2>
      <HistoryTimeline messages={history.data ?? []} />
      <EventComments endpointId={endpointId} eventId={eventId} audits={audits.data ?? []} />
      <h2>Audit</h2>
      <AuditTable audits={audits.data ?? []} />
    </section>
  );
}
