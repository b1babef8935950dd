import type { EndpointTimeSeriesBucket } from '@nimbus/message-store';

export interface SeriesWindow {
  readonly fromMs: number;
  readonly nowMs: number;
  /** Bucket width in milliseconds (a minute, an hour or a day). */
  readonly widthMs: number;
}

export interface SeriesBucket {
  readonly start: string;
  readonly end: string;
  /** The bucket still running: its counts cover only `elapsedMs` of `widthMs`. */
  readonly partial: boolean;
  readonly elapsedMs: number;
}

export interface EndpointSeriesPoint {
  readonly published: number;
  readonly handled: number;
  readonly failed: number;
  /** Average processing time of the bucket's outcomes; null when it had none (not 0 ms). */
  readonly processingAvgMs: number | null;
  readonly processingMaxMs: number | null;
}

export interface EndpointSeries {
  readonly endpointId: string;
  /** One point per bucket of `buckets`, in the same order (zero counts where nothing happened). */
  readonly points: EndpointSeriesPoint[];
}

const EMPTY: EndpointSeriesPoint = {
  published: 0,
  handled: 0,
  failed: 0,
  processingAvgMs: null,
  processingMaxMs: null,
};

/**
 * Lays the store's sparse per-endpoint buckets onto every bucket of the window, and says which bucket is
 * still running, so a chart can show it as what it is instead of a drop to zero.
 */
export function endpointSeries(
  stored: readonly EndpointTimeSeriesBucket[],
  window: SeriesWindow,
): { buckets: SeriesBucket[]; endpoints: EndpointSeries[] } {
  const { widthMs, nowMs } = window;
  const first = Math.floor(window.fromMs / widthMs) * widthMs;
  const starts: number[] = [];
  for (let t = first; t <= nowMs; t += widthMs) starts.push(t);
  const index = new Map(starts.map((t, i) => [t, i]));
  const buckets = starts.map((t) => ({
    start: new Date(t).toISOString(),
    end: new Date(t + widthMs).toISOString(),
    partial: t + widthMs > nowMs,
    elapsedMs: Math.min(widthMs, nowMs - t),
  }));
  const byEndpoint = new Map<string, EndpointSeriesPoint[]>();
  for (const row of stored) {
    const at = index.get(Math.floor(startOf(row.timestamp) / widthMs) * widthMs);
    if (at === undefined) continue; // a message stamped after now (clock skew) has no bucket yet
    let points = byEndpoint.get(row.endpointId);
    if (!points) {
      points = starts.map(() => EMPTY);
      byEndpoint.set(row.endpointId, points);
    }
    const hasTimes = row.processing.count > 0;
    points[at] = {
      published: row.published,
      handled: row.handled,
      failed: row.failed,
      processingAvgMs: hasTimes ? Math.round(row.processing.avgMs * 10) / 10 : null,
      processingMaxMs: hasTimes ? row.processing.maxMs : null,
    };
  }
  const endpoints = [...byEndpoint.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([endpointId, points]) => ({ endpointId, points }));
  return { buckets, endpoints };
}

/** A store bucket key (`2026-01-01T10`, `…T10:05`, `2026-01-01`) as epoch milliseconds. */
function startOf(key: string): number {
  if (key.length === 10) return Date.parse(`${key}T00:00:00.000Z`);
  if (key.length === 13) return Date.parse(`${key}:00:00.000Z`);
  return Date.parse(`${key}:00.000Z`);
}
