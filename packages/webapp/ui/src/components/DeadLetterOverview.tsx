import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.js';
import { Link } from './Link.js';

/** Dead-letter counts of every input, each linking to its list. */
export function DeadLetterOverview() {
  const overview = useQuery({ queryKey: ['dead-letters'], queryFn: () => ok(api.GET('/api/dead-letters')) });
  if (overview.error) return <p className="error">{String((overview.error as Error).message)}</p>;
  if (!overview.data) return null;
  return (
    <table className="data-table" data-testid="dead-letter-overview">
      <caption>{overview.data.total} dead letters in all</caption>
      <thead>
        <tr>
          <th>Input</th>
          <th>Dead letters</th>
        </tr>
      </thead>
      <tbody>
        {overview.data.inputs.map((i) => (
          <tr key={i.input} data-input={i.input}>
            <td>
              <Link to={`/dead-letters/${encodeURIComponent(i.input)}`}>{i.input}</Link>
            </td>
            <td data-testid="dead-letter-count" title={i.error ?? undefined}>
              {i.deadLettered ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
