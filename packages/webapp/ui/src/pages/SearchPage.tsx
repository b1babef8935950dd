import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type EventRow, ok } from '../api.js';
import { Link } from '../components/Link.js';
import { PagingFooter } from '../components/PagingFooter.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { usePagedQuery } from '../paged-query.js';
import { navigate } from '../router.js';
import {
  apiQueryOf,
  filtersOf,
  isoOfLocalInput,
  localInputOf,
  type SearchFilters,
  STATUSES,
  searchUrl,
} from '../search/search-filters.js';

type SearchRow = Omit<EventRow, 'resubmitCount'>;

/**
 * Search events across endpoints. Every filter lives in the URL: a link opens the same search, each change
 * is a new history entry (Back returns to the previous search), and the page reads nothing but the URL.
 */
export function SearchPage({ search }: { search: string }) {
  const filters = filtersOf(new URLSearchParams(search));
  const apply = (next: Partial<SearchFilters>) => navigate(searchUrl({ ...filters, ...next }));
  const query = apiQueryOf(filters);
  const result = usePagedQuery<SearchRow>(
    ['search', JSON.stringify(query)],
    async (token) => {
      const page = await ok(
        api.GET('/api/events', {
          params: { query: token ? { ...query, continuationToken: token } : query },
        }),
      );
      return { items: page.events, continuationToken: page.continuationToken };
    },
    (e) => `${e.endpointId}/${e.eventId}/${e.sessionId}`,
  );
  return (
    <section>
      <h1>Search events</h1>
      <SearchForm key={search} filters={filters} onApply={apply} />
      {result.error && <p className="error">{result.error.message}</p>}
      <div className="table-scroll">
        <table className="table" data-testid="search-results">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>Event</th>
              <th>Status</th>
              <th>Event type</th>
              <th>Session</th>
              <th>Error</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((e) => (
              <tr
                key={`${e.endpointId}/${e.eventId}/${e.sessionId}`}
                data-row-id={`${e.endpointId}/${e.eventId}`}
              >
                <td data-testid="endpoint">{e.endpointId}</td>
                <td>
                  <Link
                    to={`/endpoints/${encodeURIComponent(e.endpointId)}/events/${encodeURIComponent(e.eventId)}`}
                  >
                    {e.eventId}
                  </Link>
                </td>
                <td>
                  <StatusBadge status={e.status} retry={e.retry} />
                </td>
                <td>{e.eventTypeId}</td>
                <td>{e.sessionId}</td>
                <td className="error-cell">{e.errorContent?.errorText ?? ''}</td>
                <td>{new Date(e.updatedAt).toLocaleString()}</td>
              </tr>
            ))}
            {!result.isLoading && result.rows.length === 0 && (
              <tr>
                <td colSpan={7} className="empty">
                  No event matches this search.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <PagingFooter
        shown={result.rows.length}
        hasMore={result.hasMore}
        loadingMore={result.loadingMore}
        onLoadMore={result.loadMore}
        noun="events"
      />
    </section>
  );
}

/** Text and time fields apply on Search (or Enter); status and endpoint apply as they change. */
function SearchForm({
  filters,
  onApply,
}: {
  filters: SearchFilters;
  onApply: (next: Partial<SearchFilters>) => void;
}) {
  const [draft, setDraft] = useState({
    payload: filters.payload,
    eventTypeId: filters.eventTypeId,
    eventId: filters.eventId,
    sessionId: filters.sessionId,
    from: localInputOf(filters.updatedAtFrom),
    to: localInputOf(filters.updatedAtTo),
  });
  const endpoints = useQuery({ queryKey: ['endpoints'], queryFn: () => ok(api.GET('/api/endpoints')) });
  const topology = useQuery({ queryKey: ['topology'], queryFn: () => ok(api.GET('/api/topology')) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      payload: draft.payload.trim(),
      eventTypeId: draft.eventTypeId.trim(),
      eventId: draft.eventId.trim(),
      sessionId: draft.sessionId.trim(),
      updatedAtFrom: isoOfLocalInput(draft.from),
      updatedAtTo: isoOfLocalInput(draft.to),
    });
  };
  const text = (key: 'payload' | 'eventTypeId' | 'eventId' | 'sessionId', label: string, list?: string) => (
    <label className="field">
      {label}
      <input
        name={key}
        list={list}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <form className="search-form card" onSubmit={submit} aria-label="search filters">
      <div className="field-row">
        {text('payload', 'Payload contains')}
        <label className="field">
          Endpoint
          <select
            name="endpointId"
            value={filters.endpointId}
            onChange={(e) => onApply({ endpointId: e.target.value })}
          >
            <option value="">All endpoints</option>
            {(endpoints.data ?? []).map((e) => (
              <option key={e.endpointId}>{e.endpointId}</option>
            ))}
          </select>
        </label>
        {text('eventTypeId', 'Event type', 'event-types')}
        <datalist id="event-types">
          {(topology.data?.eventTypes ?? []).map((t) => (
            <option key={t.id} value={t.id} />
          ))}
        </datalist>
      </div>
      <div className="field-row">
        {text('eventId', 'Event id')}
        {text('sessionId', 'Session id')}
        <label className="field">
          Updated from
          <input
            name="updatedAtFrom"
            type="datetime-local"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label className="field">
          Updated to
          <input
            name="updatedAtTo"
            type="datetime-local"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </label>
      </div>
      <fieldset className="filters">
        <legend>Status (none ticked: every status)</legend>
        {STATUSES.map((s) => (
          <label key={s} className="chip">
            <input
              type="checkbox"
              name={`status-${s}`}
              checked={filters.status.includes(s)}
              onChange={(e) =>
                onApply({
                  status: e.target.checked ? [...filters.status, s] : filters.status.filter((x) => x !== s),
                })
              }
            />
            {s}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit">Search</button>
        <button type="button" onClick={() => navigate('/search')}>
          Clear
        </button>
      </div>
    </form>
  );
}
