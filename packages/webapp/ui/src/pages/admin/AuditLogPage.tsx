import { type FormEvent, useState } from 'react';
import { type Answer, api, ok } from '../../api.js';
import { AdminNav } from '../../components/AdminNav.js';
import { AuditData } from '../../components/EventRecords.js';
import { PagingFooter } from '../../components/PagingFooter.js';
import { usePagedQuery } from '../../paged-query.js';
import { AUDIT_ACTIONS, type AuditFilters, filtersFromUrl, filtersToQuery } from './audit-filters.js';

type AuditRow = Answer<'/api/audits'>['audits'][number];

/** Every audit row of the site, newest first, filtered by who, action, endpoint, time range and text. */
export function AuditLogPage() {
  const [draft, setDraft] = useState<AuditFilters>(() => filtersFromUrl(window.location.search));
  const [filters, setFilters] = useState<AuditFilters>(draft);
  const audits = usePagedQuery<AuditRow>(
    ['admin', 'audits', filters],
    async (continuationToken) => {
      const page = await ok(
        api.GET('/api/audits', {
          params: {
            query: {
              ...filtersToQuery(filters),
              pageSize: 50,
              ...(continuationToken ? { continuationToken } : {}),
            },
          },
        }),
      );
      return { items: page.audits, continuationToken: page.continuationToken };
    },
    (row) => `${row.createdAt}|${row.auditType}|${row.auditorName}|${row.eventId}|${row.data}`,
  );
  const set = (key: keyof AuditFilters) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [key]: e.target.value });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    // The filters live in the URL, so a link to this page shows the same rows.
    const query = new URLSearchParams(Object.entries(draft).filter(([, v]) => v !== '')).toString();
    window.history.replaceState(null, '', `/admin/audit${query ? `?${query}` : ''}`);
  };

  return (
    <section>
      <h1>Administration</h1>
      <AdminNav current="/admin/audit" />
      <form className="filters" onSubmit={search} aria-label="audit filters">
        <label>
          Who
          <input
            name="auditorName"
            value={draft.auditorName}
            onChange={set('auditorName')}
            placeholder="name prefix"
          />
        </label>
        <label>
          Action
          <select name="auditType" value={draft.auditType} onChange={set('auditType')}>
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Endpoint
          <input name="endpointId" value={draft.endpointId} onChange={set('endpointId')} />
        </label>
        <label>
          From
          <input name="from" type="datetime-local" value={draft.from} onChange={set('from')} />
        </label>
        <label>
          To
          <input name="to" type="datetime-local" value={draft.to} onChange={set('to')} />
        </label>
        <label>
          Text
          <input name="text" value={draft.text} onChange={set('text')} placeholder="in data, comment, ids" />
        </label>
        <button type="submit">Search</button>
      </form>
      {audits.error && <p className="error">{audits.error.message}</p>}
      <table className="table" data-testid="audit-log">
        <thead>
          <tr>
            <th>When</th>
            <th>Who</th>
            <th>Action</th>
            <th>Endpoint</th>
            <th>Subject</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {audits.rows.map((a) => (
            <tr
              key={`${a.createdAt}|${a.auditType}|${a.auditorName}|${a.eventId}|${a.data}`}
              data-audit-type={a.auditType}
            >
              <td>{new Date(a.createdAt).toLocaleString()}</td>
              <td>{a.auditorName}</td>
              <td>
                {a.auditType}
                {a.accessDenied ? <span className="badge badge-off"> denied</span> : null}
              </td>
              <td>{a.endpointId ?? '—'}</td>
              <td>{a.eventId}</td>
              <td>
                <AuditData data={a.data} />
                {a.comment ? <div>{a.comment}</div> : null}
              </td>
            </tr>
          ))}
          {audits.rows.length === 0 && !audits.isLoading && (
            <tr>
              <td colSpan={6} className="empty">
                No audit rows match.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <PagingFooter
        shown={audits.rows.length}
        hasMore={audits.hasMore}
        loadingMore={audits.loadingMore}
        onLoadMore={audits.loadMore}
        noun="audit rows"
      />
    </section>
  );
}
