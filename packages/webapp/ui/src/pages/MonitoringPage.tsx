import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, ApiError, api, ok } from '../api.js';
import { CustomChecksTable } from '../components/CustomChecksTable.js';
import { ThresholdsForm } from '../components/ThresholdsForm.js';

type Input = Answer<'/api/monitoring'>['inputs'][number];

/** Live reads fall back to this poll: the backlog also grows while nothing is written to the store. */
const POLL_MS = 3_000;

const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);

/**
 * ServicePulse's monitoring view: per endpoint input the backlog, processing time, critical time (publish →
 * handled) and throughput of the last minutes, thresholds that alert, and pause/resume of its consumers.
 */
export function MonitoringPage() {
  const client = useQueryClient();
  const monitoring = useQuery({
    queryKey: ['monitoring'],
    queryFn: () => ok(api.GET('/api/monitoring', { params: { query: { windowMinutes: 5 } } })),
    refetchInterval: POLL_MS,
  });
  const [notice, setNotice] = useState<string | null>(null);
  const setPaused = async (input: Input, paused: boolean) => {
    const path = { input: input.input };
    try {
      if (paused) await ok(api.POST('/api/monitoring/{input}/pause', { params: { path }, body: {} }));
      else await ok(api.POST('/api/monitoring/{input}/resume', { params: { path }, body: {} }));
      setNotice(
        paused
          ? `${input.input} paused: its hosts stop taking messages within a second.`
          : `${input.input} resumed.`,
      );
    } catch (e) {
      setNotice(e instanceof ApiError ? e.message : String(e));
    }
    await client.invalidateQueries({ queryKey: ['monitoring'] });
  };
  const data = monitoring.data;
  return (
    <section>
      <h1>Monitoring</h1>
      <p>
        Per endpoint input over the last {data?.windowMinutes ?? 5} minutes: messages waiting, how long
        handlers take, how long from publish to handled, and how many outcomes a second.
        {data && !data.controllable && ' This transport keeps no control state: pausing is not available.'}
      </p>
      {notice && <p className="notice">{notice}</p>}
      {monitoring.error && <p className="error">{String((monitoring.error as Error).message)}</p>}
      {data && (
        <table className="data-table" data-testid="monitoring">
          <thead>
            <tr>
              <th>Input</th>
              <th>Backlog</th>
              <th>Processing (avg / max)</th>
              <th>Critical time (avg / max)</th>
              <th>Throughput</th>
              <th>Dead letters</th>
              <th>Consumers</th>
              <th>Thresholds</th>
            </tr>
          </thead>
          <tbody>
            {data.inputs.map((i) => (
              <tr
                key={i.input}
                data-input={i.input}
                className={i.breaches.length > 0 ? 'row-alert' : undefined}
              >
                <td>{i.input}</td>
                <td data-testid="backlog" title={i.countError ?? undefined}>
                  {i.backlog ?? '—'}
                </td>
                <td data-testid="processing">
                  {ms(i.processingAvgMs)} / {ms(i.processingMaxMs)}
                </td>
                <td data-testid="critical">
                  {ms(i.criticalAvgMs)} / {ms(i.criticalMaxMs)}
                </td>
                <td data-testid="throughput">{i.throughputPerSecond}/s</td>
                <td>{i.deadLettered ?? '—'}</td>
                <td>
                  <span
                    data-testid="consumer-state"
                    title={i.pausedBy ? `by ${i.pausedBy} at ${i.pausedAt}` : ''}
                  >
                    {i.paused ? 'Paused' : 'Receiving'}
                  </span>{' '}
                  <button type="button" disabled={!data.controllable} onClick={() => setPaused(i, !i.paused)}>
                    {i.paused ? 'Resume' : 'Pause'}
                  </button>
                </td>
                <td data-testid="breaches">
                  {i.breaches.length > 0
                    ? i.breaches.join('; ')
                    : i.maxBacklog === null && i.maxCriticalTimeMs === null
                      ? 'none set'
                      : 'within'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data?.controllable && <ThresholdsForm inputs={data.inputs} />}
      <CustomChecksTable />
    </section>
  );
}
