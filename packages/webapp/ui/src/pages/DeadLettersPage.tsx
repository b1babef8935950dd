import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, ok } from '../api.js';
import { DeadLetterOverview } from '../components/DeadLetterOverview.js';
import { navigate } from '../router.js';

const requeue =
  (ids?: string[]) =>
  async (path: { input: string }): Promise<string> => {
    const answer = await ok(
      api.POST('/api/dead-letters/{input}/requeue', { params: { path }, body: ids ? { ids } : {} }),
    );
    const left = answer.unreadableLeft > 0 ? ` ${answer.unreadableLeft} unreadable left (purge them).` : '';
    return `Requeued ${answer.requeued}.${left}`;
  };

async function purge(path: { input: string }): Promise<string> {
  const answer = await ok(api.POST('/api/dead-letters/{input}/purge', { params: { path }, body: {} }));
  return `Purged ${answer.purged}.`;
}

/** The transport's dead-letter list of one input: what it is, why it is there, requeue or purge. */
export function DeadLettersPage({ input }: { input: string | null }) {
  const client = useQueryClient();
  const endpoints = useQuery({
    queryKey: ['endpoints'],
    queryFn: () => ok(api.GET('/api/endpoints')),
  });
  const list = useQuery({
    queryKey: ['dead-letters', input],
    queryFn: () => ok(api.GET('/api/dead-letters/{input}', { params: { path: { input: input ?? '' } } })),
    enabled: input !== null,
  });
  const [openId, setOpenId] = useState<string | null>(null);
  const details = useQuery({
    queryKey: ['dead-letter', input, openId],
    queryFn: () =>
      ok(
        api.GET('/api/dead-letters/{input}/{deadLetterId}', {
          params: { path: { input: input ?? '', deadLetterId: openId ?? '' } },
        }),
      ),
    enabled: input !== null && openId !== null,
  });
  const [result, setResult] = useState<string | null>(null);
  const act = async (send: (path: { input: string }) => Promise<string>) => {
    try {
      setResult(await send({ input: input ?? '' }));
      setOpenId(null);
      await client.invalidateQueries({ queryKey: ['dead-letters', input] });
    } catch (e) {
      setResult(e instanceof ApiError ? e.message : String(e));
    }
  };
  const inputs = ['Resolver', ...(endpoints.data ?? []).map((e) => e.endpointId)];
  return (
    <section>
      <h1>Dead letters</h1>
      <p>
        Messages the transport could not deliver as events (unreadable, no message type or event id, too
        large, delivered too often). They are not in the event views; requeue puts one back into its session.
      </p>
      <select
        aria-label="input"
        value={input ?? ''}
        onChange={(e) =>
          navigate(e.target.value ? `/dead-letters/${encodeURIComponent(e.target.value)}` : '/dead-letters')
        }
      >
        <option value="">choose an input</option>
        {inputs.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
      {input === null && <DeadLetterOverview />}
      {result && <p className="notice">{result}</p>}
      {list.error && <p className="error">{String((list.error as Error).message)}</p>}
      {list.data && (
        <>
          <p>
            {list.data.total} dead letter{list.data.total === 1 ? '' : 's'} at {input}.{' '}
            <button type="button" disabled={list.data.total === 0} onClick={() => act(requeue())}>
              Requeue all
            </button>{' '}
            <button
              type="button"
              disabled={list.data.total === 0}
              onClick={() => {
                if (window.confirm(`Delete every dead letter at ${input} for good?`)) void act(purge);
              }}
            >
              Purge all
            </button>
          </p>
          <table className="data-table">
            <thead>
              <tr>
                <th>Dead-lettered</th>
                <th>Reason</th>
                <th>Session</th>
                <th>Message type</th>
                <th>Event id</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((d) => (
                <tr key={d.id}>
                  <td>{new Date(d.deadLetteredAt).toLocaleString()}</td>
                  <td title={d.description ?? ''}>
                    {d.reason}
                    {d.unreadable && <span className="error"> (unreadable: {d.unreadable})</span>}
                  </td>
                  <td>{d.sessionId}</td>
                  <td>{d.messageType ?? '—'}</td>
                  <td>{d.eventId ?? '—'}</td>
                  <td>
                    <button type="button" onClick={() => setOpenId(d.id)}>
                      Show
                    </button>{' '}
                    <button
                      type="button"
                      disabled={d.unreadable !== null}
                      title={d.unreadable ? 'an unreadable message cannot be requeued' : undefined}
                      onClick={() => act(requeue([d.id]))}
                    >
                      Requeue
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {details.data && (
        <section className="card" aria-label="dead letter">
          <h2>Dead letter {details.data.id}</h2>
          <dl className="props">
            <dt>Reason</dt>
            <dd>{details.data.reason}</dd>
            <dt>Description</dt>
            <dd>
              <pre>{details.data.description ?? '—'}</pre>
            </dd>
            <dt>Message</dt>
            <dd>
              {details.data.messageId} (session {details.data.sessionId}, correlation{' '}
              {details.data.correlationId ?? '—'}, delivered {details.data.deliveryCount}×)
            </dd>
            <dt>Headers</dt>
            <dd>
              <pre>{JSON.stringify(details.data.headers, null, 2)}</pre>
            </dd>
            <dt>Body ({details.data.bodyBytes} bytes)</dt>
            <dd>
              <pre>{details.data.body}</pre>
            </dd>
          </dl>
        </section>
      )}
    </section>
  );
}
