/** The history and audit records of one event, as the event details page shows them. */
import type { Audit, HistoryMessage } from '../api.js';

/** Newest first, numbered so the first message is 1 (the list counts down from the newest). */
export function HistoryTimeline({ messages }: { messages: readonly HistoryMessage[] }) {
  return (
    <ol className="timeline" reversed>
      {messages.map((m) => (
        <li key={m.messageId}>
          <b>{m.messageType}</b> {m.from} → {m.to}{' '}
          <small>{new Date(m.enqueuedTimeUtc).toLocaleString()}</small>
          {m.errorContent && <div className="error">{m.errorContent.errorText}</div>}
        </li>
      ))}
    </ol>
  );
}

/** Audit data is JSON; operators read it as fields, with nested values (an edited payload) pretty-printed. */
export function AuditData({ data }: { data: string | null }) {
  if (!data) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return <code>{data}</code>;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return <code>{data}</code>;
  return (
    <dl className="audit-data">
      {Object.entries(parsed).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{typeof value === 'string' ? readable(value) : <pre>{JSON.stringify(value, null, 2)}</pre>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A string that holds JSON (an edited payload) is shown pretty-printed; any other string as it is. */
function readable(value: string) {
  if (!/^\s*[[{]/.test(value)) return value;
  try {
    return <pre>{JSON.stringify(JSON.parse(value), null, 2)}</pre>;
  } catch {
    return value;
  }
}

export function AuditTable({ audits }: { audits: readonly Audit[] }) {
  return (
    <table className="table" data-testid="audits">
      <tbody>
        {audits.map((a) => (
          <tr key={`${a.auditTimestamp}-${a.auditType}-${a.auditorName}`}>
            <td>{new Date(a.auditTimestamp).toLocaleString()}</td>
            <td>{a.auditType}</td>
            <td>{a.auditorName}</td>
            <td>{a.accessDenied ? 'denied' : ''}</td>
            <td>
              <AuditData data={a.data} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
