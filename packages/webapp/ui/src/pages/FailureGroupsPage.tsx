import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.js';
import { Link } from '../components/Link.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { BulkJobProgress, useBulkJob } from '../operator/BulkJobProgress.js';
import { durationText, type FailureGroup, plural } from '../operator/bulk-types.js';
import { GroupActionConfirm } from '../operator/GroupActionConfirm.js';
import { GroupSnooze } from '../operator/GroupSnooze.js';

const enc = encodeURIComponent;

/**
 * Failed and dead-lettered events grouped by cause (error type + message with ids, numbers and quoted values
 * stripped), across endpoints or for one; counts come from the store and follow live updates.
 */
export function FailureGroupsPage({ endpointId }: { endpointId?: string }) {
  const [open, setOpen] = useState<string | null>(() =>
    new URLSearchParams(window.location.search).get('group'),
  );
  const [confirming, setConfirming] = useState<{ signature: string; action: 'resubmit' | 'skip' } | null>(
    null,
  );
  const [jobId, setJobId] = useState<string | null>(null);
  const groups = useQuery({
    queryKey: ['failure-groups', endpointId ?? '*'],
    queryFn: () =>
      endpointId
        ? ok(api.GET('/api/endpoints/{endpointId}/failure-groups', { params: { path: { endpointId } } }))
        : ok(api.GET('/api/failure-groups')),
  });
  const job = useBulkJob(jobId);
  const now = Date.now();
  const confirmGroup = groups.data?.find((g) => g.signature === confirming?.signature);
  return (
    <section>
      {endpointId && (
        <p>
          <Link to={`/endpoints/${enc(endpointId)}`}>← {endpointId}</Link>
        </p>
      )}
      <h1>Failure groups{endpointId ? ` on ${endpointId}` : ''}</h1>
      <p className="hint">
        Failed and dead-lettered events with the same cause: the error type and message, with ids, numbers and
        quoted values left out. Failures the retry policy still retries are not here: they show as Retrying on
        the events. {endpointId ? <Link to="/failure-groups">All endpoints</Link> : null}
      </p>
      {groups.error && <p className="error">{groups.error.message}</p>}
      {job.data && (
        <div className="card">
          <BulkJobProgress job={job.data} />
          <Link to={`/bulk-jobs/${enc(job.data.jobId)}`}>Job details</Link>
        </div>
      )}
      {confirming && confirmGroup && (
        <GroupActionConfirm
          group={confirmGroup}
          action={confirming.action}
          onCancel={() => setConfirming(null)}
          onStarted={(started) => {
            setConfirming(null);
            setJobId(started.jobId);
          }}
        />
      )}
      <table className="table" data-testid="failure-groups">
        <thead>
          <tr>
            <th>Cause</th>
            <th>Endpoints</th>
            <th>Events</th>
            <th>Sessions</th>
            <th>First seen</th>
            <th>Last seen</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(groups.data ?? []).map((g) => (
            <tr
              key={g.signature}
              data-signature={g.signature}
              className={open === g.signature ? 'selected' : ''}
            >
              <td>
                <b>{g.errorType}</b>: {g.normalisedMessage}
                {g.exampleErrorText && <div className="example">e.g. {g.exampleErrorText}</div>}
              </td>
              <td>{g.endpointIds.join(', ')}</td>
              <td data-testid="group-events">{g.eventCount}</td>
              <td data-testid="group-sessions">{g.sessionCount}</td>
              <td title={g.firstSeen}>{durationText(now - Date.parse(g.firstSeen))} ago</td>
              <td title={g.lastSeen}>{durationText(now - Date.parse(g.lastSeen))} ago</td>
              <td className="row-actions">
                <button type="button" onClick={() => setOpen(open === g.signature ? null : g.signature)}>
                  {open === g.signature ? 'Close' : 'Open'}
                </button>
                <button
                  type="button"
                  onClick={() => setConfirming({ signature: g.signature, action: 'resubmit' })}
                >
                  Resubmit all
                </button>
                <button
                  type="button"
                  onClick={() => setConfirming({ signature: g.signature, action: 'skip' })}
                >
                  Skip all
                </button>
                <GroupSnooze signature={g.signature} endpointIds={g.endpointIds} />
              </td>
            </tr>
          ))}
          {groups.data?.length === 0 && (
            <tr>
              <td colSpan={7} className="empty">
                No failures.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {open && groups.data?.some((g) => g.signature === open) && (
        <GroupEvents group={groups.data.find((g) => g.signature === open)!} />
      )}
    </section>
  );
}

/** The events of one group, per endpoint (newest 50 each), with the error each one reported. */
function GroupEvents({ group }: { group: FailureGroup }) {
  return (
    <div className="card" data-testid="group-events-list">
      <h2>
        {plural(group.eventCount, 'event')} in {plural(group.sessionCount, 'session')}: {group.errorType}
      </h2>
      {group.endpointIds.map((endpointId) => (
        <EndpointGroupEvents key={endpointId} endpointId={endpointId} signature={group.signature} />
      ))}
    </div>
  );
}

function EndpointGroupEvents({ endpointId, signature }: { endpointId: string; signature: string }) {
  const events = useQuery({
    queryKey: ['endpoint', endpointId, 'group-events', signature],
    queryFn: () =>
      ok(
        api.GET('/api/endpoints/{endpointId}/events', {
          params: { path: { endpointId }, query: { failureSignature: signature, pageSize: 50 } },
        }),
      ),
  });
  return (
    <>
      <h3>{endpointId}</h3>
      <table className="table">
        <tbody>
          {(events.data?.events ?? []).map((e) => (
            <tr key={e.eventId} data-event-id={e.eventId}>
              <td>
                <Link to={`/endpoints/${enc(endpointId)}/events/${enc(e.eventId)}`}>{e.eventId}</Link>
              </td>
              <td>
                <StatusBadge status={e.status} retry={e.retry} />
              </td>
              <td>{e.sessionId}</td>
              <td className="error">{e.errorContent?.errorText}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
