import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../api.js';
import { Link } from '../components/Link.js';

interface Message {
  eventId: string;
  messageId: string;
  endpointId: string;
  messageType: string;
  sessionId: string | null;
  eventTypeId: string | null;
  from: string | null;
  to: string | null;
  enqueuedTimeUtc: string;
}

export function SearchPage() {
  const [form, setForm] = useState({ eventId: '', sessionId: '', endpointId: '', eventTypeId: '' });
  const [submitted, setSubmitted] = useState(form);
  const params = new URLSearchParams(Object.entries(submitted).filter(([, v]) => v !== ''));
  const result = useQuery({
    queryKey: ['search', params.toString()],
    queryFn: () => get<{ messages: Message[] }>(`/api/messages?${params}`),
  });
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
      <table className="table">
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
          {(result.data?.messages ?? []).map((m) => (
            <tr key={`${m.eventId}-${m.messageId}`}>
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
    </section>
  );
}
