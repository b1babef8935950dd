import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, ok } from '../api.js';

export function OperationsPage() {
  const status = useQuery({ queryKey: ['app-status'], queryFn: () => ok(api.GET('/api/app/status')) });
  const endpoints = useQuery({
    queryKey: ['endpoints'],
    queryFn: () => ok(api.GET('/api/endpoints')),
  });
  const [endpointId, setEndpointId] = useState('');
  const [target, setTarget] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const copy = async () => {
    try {
      await ok(api.POST('/api/operations/copy-endpoint-data', { body: { endpointId, target } }));
      setResult('Copied.');
    } catch (e) {
      setResult(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <section>
      <h1>Operations</h1>
      <dl className="props">
        <dt>Environment</dt>
        <dd>{status.data?.environment}</dd>
        <dt>Storage provider</dt>
        <dd>{status.data?.storageProvider}</dd>
        <dt>Transport</dt>
        <dd>{status.data?.transport}</dd>
      </dl>
      <div className="card">
        <h2>Copy endpoint data</h2>
        {status.data?.capabilities?.supportsCrossAccountCopy === false && (
          <p className="notice">
            The {status.data.storageProvider} provider cannot copy endpoint data; use database backups.
          </p>
        )}
        <select aria-label="endpoint" value={endpointId} onChange={(e) => setEndpointId(e.target.value)}>
          <option value="">choose an endpoint</option>
          {(endpoints.data ?? []).map((e) => (
            <option key={e.endpointId}>{e.endpointId}</option>
          ))}
        </select>
        <input
          type="password"
          placeholder="target connection"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
        <button type="button" onClick={copy} disabled={!endpointId || !target}>
          Copy
        </button>
        {result && <p className="error">{result}</p>}
      </div>
    </section>
  );
}
