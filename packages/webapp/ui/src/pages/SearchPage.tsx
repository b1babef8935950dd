import { useState } from 'react';
import { api, ok } from '../api.js';
import { Link } from '../components/Link.js';
import { PagingFooter } from '../components/PagingFooter.js';
import { usePagedQuery } from '../paged-query.js';

export function SearchPage() {
  const [form, setForm] = useState({ eventId: '', sessionId: '', endpointId: '', eventTypeId: '' });
  const [submitted, setSubmitted] = useState(form);
  const query = {
    ...Object.fromEntries(Object.entries(submitted).filter(([, v]) => v !== '')),
    pageSize: 50,
  };
  const result = usePagedQuery(
    ['search', JSON.stringify(query)],
    async (token) => {
      const page = await ok(
        api.GET('/api/messages', {
          params: { query: token ? { ...query, continuationToken: token } : query },
        }),
      );
      return { items: page.messages, continuationToken: page.continuationToken };
    },
    (m) => `${m.endpointId}/${m.eventId}/${m.messageId}`,
  );
  return (
    <section>
      <h1>Search messages</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(form);
        }}
      >
        {(Object.keys(form) as (keyof typeof form)[]).map((key) => (
          <input
            key={key}
            placeholder={key}
            value={form[key]}
            onChange={(e) => setForm({ ...form, [key]: e.target.value })}
          />
        ))}
        <button type="submit">Search</button>
      </form>
      {result.error && <p className="error">{result.error.message}</p>}
      <table className="table" data-testid="search-results">
        <thead>
          <tr>
            <th>Event</th>
            <th>Type</th>
            <th>Session</th>
            <th>From → To</th>
            <th>Enqueued</th>
          </tr>
        </thead>
        <tbody>
          {result.rows.map((m) => (
            <tr key={`${m.endpointId}/${m.eventId}/${m.messageId}`}>
              <td>
                <Link
                  to={`/endpoints/${encodeURIComponent(m.endpointId)}/events/${encodeURIComponent(m.eventId)}`}
                >
                  {m.eventId}
                </Link>
              </td>
              <td>{m.messageType}</td>
              <td>{m.sessionId}</td>
              <td>
                {m.from} → {m.to}
              </td>
              <td>{new Date(m.enqueuedTimeUtc).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PagingFooter
        shown={result.rows.length}
        hasMore={result.hasMore}
        loadingMore={result.loadingMore}
        onLoadMore={result.loadMore}
        noun="messages"
      />
    </section>
  );
}
