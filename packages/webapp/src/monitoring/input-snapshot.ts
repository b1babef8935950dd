import type { InputState, Transport, TransportCounts } from '@nimbus/core';
import type { EndpointLatencyAggregate, MetricsStore } from '@nimbus/message-store';

/** One endpoint input as the monitoring page shows it. */
export interface InputSnapshot {
  readonly input: string;
  /** Messages waiting on the input (`null` when the transport could not count them: `countError` says why). */
  readonly backlog: number | null;
  readonly scheduled: number | null;
  readonly parked: number | null;
  readonly deadLettered: number | null;
  readonly countError: string | null;
  readonly paused: boolean;
  readonly pausedBy: string | null;
  readonly pausedAt: string | null;
  /** Average handler time of the outcomes in the window; `null` when there were none. */
  readonly processingAvgMs: number | null;
  readonly processingMaxMs: number | null;
  /** Average time from publish to handled (queue wait + processing) in the window; `null` when none. */
  readonly criticalAvgMs: number | null;
  readonly criticalMaxMs: number | null;
  /** Outcomes reported per second over the window. */
  readonly throughputPerSecond: number;
  readonly handled: number;
  readonly failed: number;
  readonly maxBacklog: number | null;
  readonly maxCriticalTimeMs: number | null;
  /** Thresholds this input is over now. */
  readonly breaches: string[];
}

interface Weighted {
  count: number;
  sum: number;
  max: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function weighted(
  rows: readonly EndpointLatencyAggregate[],
  pick: (r: EndpointLatencyAggregate) => Weighted,
) {
  const total = rows.reduce(
    (acc, r) => {
      const w = pick(r);
      return { count: acc.count + w.count, sum: acc.sum + w.sum, max: Math.max(acc.max, w.max) };
    },
    { count: 0, sum: 0, max: 0 },
  );
  return total.count === 0 ? null : { avg: round(total.sum / total.count), max: total.max };
}

/** Which thresholds a snapshot is over (also the alert's wording). */
export function breachesOf(
  backlog: number | null,
  criticalAvgMs: number | null,
  state: Pick<InputState, 'maxBacklog' | 'maxCriticalTimeMs'> | undefined,
): string[] {
  const out: string[] = [];
  if (state?.maxBacklog != null && backlog !== null && backlog > state.maxBacklog)
    out.push(`backlog ${backlog} > ${state.maxBacklog}`);
  if (state?.maxCriticalTimeMs != null && criticalAvgMs !== null && criticalAvgMs > state.maxCriticalTimeMs)
    out.push(`critical time ${criticalAvgMs} ms > ${state.maxCriticalTimeMs} ms`);
  return out;
}

/**
 * Backlog (the transport's counts), processing and critical time and throughput (the store's history of the
 * last `windowMs`), pause state and thresholds (the transport's control state) of every input.
 */
export async function snapshotInputs(deps: {
  readonly transport: Transport;
  readonly store: MetricsStore;
  readonly inputs: readonly string[];
  readonly windowMs: number;
  readonly now: number;
}): Promise<InputSnapshot[]> {
  const { transport, store, inputs, windowMs, now } = deps;
  const from = new Date(now - windowMs);
  const [latency, metrics, states] = await Promise.all([
    store.getEndpointLatencyMetrics(from),
    store.getEndpointMetrics(from),
    transport.control?.inputStates() ?? Promise.resolve([] as InputState[]),
  ]);
  const key = (id: string) => id.toLowerCase();
  const stateOf = new Map(states.map((s) => [key(s.input), s]));
  const sum = (rows: readonly { endpointId: string; count: number }[], id: string) =>
    rows.filter((r) => key(r.endpointId) === key(id)).reduce((n, r) => n + r.count, 0);
  const out: InputSnapshot[] = [];
  for (const input of inputs) {
    let counts: TransportCounts | null = null;
    let countError: string | null = null;
    try {
      counts = await transport.counts(input);
    } catch (error) {
      countError = (error as Error).message;
    }
    const rows = latency.latencies.filter((r) => key(r.endpointId) === key(input));
    const processing = weighted(rows, (r) => ({
      count: r.processing.count,
      sum: r.processing.avgMs * r.processing.count,
      max: r.processing.maxMs,
    }));
    // Queue wait and processing are recorded on the same outcome: their averages add up to publish → handled.
    const critical = weighted(rows, (r) => {
      const n = Math.min(r.queue.count, r.processing.count);
      return {
        count: n,
        sum: (r.queue.avgMs + r.processing.avgMs) * n,
        max: r.queue.maxMs + r.processing.maxMs,
      };
    });
    const handled = sum(metrics.handled, input);
    const failed = sum(metrics.failed, input);
    const state = stateOf.get(key(input));
    const backlog = counts?.active ?? null;
    out.push({
      input,
      backlog,
      scheduled: counts?.scheduled ?? null,
      parked: counts?.parked ?? null,
      deadLettered: counts?.deadLettered ?? null,
      countError,
      paused: state?.paused ?? false,
      pausedBy: state?.paused ? state.changedBy : null,
      pausedAt: state?.paused && state.changedAt ? state.changedAt.toISOString() : null,
      processingAvgMs: processing?.avg ?? null,
      processingMaxMs: processing?.max ?? null,
      criticalAvgMs: critical?.avg ?? null,
      criticalMaxMs: critical?.max ?? null,
      throughputPerSecond: Math.round(((handled + failed) / (windowMs / 1000)) * 1000) / 1000,
      handled,
      failed,
      maxBacklog: state?.maxBacklog ?? null,
      maxCriticalTimeMs: state?.maxCriticalTimeMs ?? null,
      breaches: breachesOf(backlog, critical?.avg ?? null, state),
    });
  }
  return out;
}
