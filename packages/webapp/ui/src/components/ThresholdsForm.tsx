import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, ApiError, api, ok } from '../api.js';

type Input = Answer<'/api/monitoring'>['inputs'][number];

const parse = (text: string) => (text.trim() === '' ? null : Number(text));

/** Sets an input's alert thresholds (Owner): backlog and average critical time; empty clears one. */
export function ThresholdsForm({ inputs }: { inputs: readonly Input[] }) {
  const client = useQueryClient();
  const [input, setInput] = useState('');
  const [backlog, setBacklog] = useState('');
  const [critical, setCritical] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const saved = await ok(
        api.PUT('/api/monitoring/{input}/thresholds', {
          params: { path: { input } },
          body: { maxBacklog: parse(backlog), maxCriticalTimeMs: parse(critical) },
        }),
      );
      setResult(`Thresholds of ${saved.input} saved.`);
      await client.invalidateQueries({ queryKey: ['monitoring'] });
    } catch (e) {
      setResult(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <form className="card" aria-label="thresholds" onSubmit={save}>
      <h2>Thresholds</h2>
      <p>Alert subscriptions with the MonitoringThreshold trigger hear when an input goes over one.</p>
      <select aria-label="threshold input" value={input} onChange={(e) => setInput(e.target.value)} required>
        <option value="">choose an input</option>
        {inputs.map((i) => (
          <option key={i.input}>{i.input}</option>
        ))}
      </select>{' '}
      <input
        aria-label="max backlog"
        placeholder="max backlog"
        inputMode="numeric"
        value={backlog}
        onChange={(e) => setBacklog(e.target.value)}
      />{' '}
      <input
        aria-label="max critical time (ms)"
        placeholder="max critical time (ms)"
        inputMode="numeric"
        value={critical}
        onChange={(e) => setCritical(e.target.value)}
      />{' '}
      <button type="submit">Save thresholds</button>
      {result && <p className="notice">{result}</p>}
    </form>
  );
}
