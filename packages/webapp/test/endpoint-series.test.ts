import { describe, expect, it } from 'vitest';
import { endpointSeries } from '../src/metrics/endpoint-series.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const row = (timestamp: string, endpointId: string, handled: number, avgMs: number | null) => ({
  timestamp,
  endpointId,
  published: 0,
  handled,
  failed: 0,
  processing:
    avgMs === null
      ? { count: 0, avgMs: 0, minMs: 0, maxMs: 0 }
      : { count: handled, avgMs, minMs: avgMs, maxMs: avgMs },
});

describe('endpointSeries', () => {
  it('lays sparse store buckets onto every bucket of the window and marks the running one partial', () => {
    const result = endpointSeries(
      [row('2026-01-01T09', 'Erp', 4, 120.04), row('2026-01-01T11', 'Erp', 2, 50)],
      {
        fromMs: at('2026-01-01T08:30:00Z'),
        nowMs: at('2026-01-01T11:15:00Z'),
        widthMs: HOUR,
      },
    );
    expect(result.buckets).toEqual([
      { start: '2026-01-01T08:00:00.000Z', end: '2026-01-01T09:00:00.000Z', partial: false, elapsedMs: HOUR },
      { start: '2026-01-01T09:00:00.000Z', end: '2026-01-01T10:00:00.000Z', partial: false, elapsedMs: HOUR },
      { start: '2026-01-01T10:00:00.000Z', end: '2026-01-01T11:00:00.000Z', partial: false, elapsedMs: HOUR },
      {
        start: '2026-01-01T11:00:00.000Z',
        end: '2026-01-01T12:00:00.000Z',
        partial: true,
        elapsedMs: HOUR / 4,
      },
    ]);
    const [erp] = result.endpoints;
    expect(erp?.points.map((p) => p.handled)).toEqual([0, 4, 0, 2]);
    // No outcome, no processing time: null (a gap), never 0 ms.
    expect(erp?.points.map((p) => p.processingAvgMs)).toEqual([null, 120, null, 50]);
  });

  it('lists endpoints in ordinal order and ignores a bucket after now (clock skew)', () => {
    const result = endpointSeries(
      [
        row('2026-01-01T10', 'b', 1, null),
        row('2026-01-01T10', 'B', 1, null),
        row('2026-01-01T13', 'a', 9, 1),
      ],
      { fromMs: at('2026-01-01T10:00:00Z'), nowMs: at('2026-01-01T10:30:00Z'), widthMs: HOUR },
    );
    expect(result.endpoints.map((e) => e.endpointId)).toEqual(['B', 'b']);
    expect(result.buckets).toHaveLength(1);
  });
});
