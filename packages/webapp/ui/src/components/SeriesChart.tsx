import { useState } from 'react';
import {
  CartesianGrid,
  Label,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

/** Distinct colours, cycled when a platform has more endpoints than colours. */
const PALETTE = [
  '#2563eb',
  '#059669',
  '#dc2626',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#475569',
  '#ea580c',
];
export const colourOf = (index: number) => PALETTE[index % PALETTE.length]!;

export interface ChartBucket {
  readonly start: string;
  readonly partial: boolean;
}

export interface ChartSeries {
  readonly name: string;
  /** One value per bucket; null draws a gap (no data), never a zero. */
  readonly values: readonly (number | null)[];
}

const SO_FAR = ' (so far)';

function timeLabel(iso: string, bucketSize: string): string {
  const at = new Date(iso);
  if (bucketSize === 'day') return at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  // Hour buckets span days (12 h … 3 d): the axis names the day as well as the time.
  if (bucketSize === 'hour')
    return at.toLocaleString(undefined, {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
  return at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/**
 * One line per series over time, with axes, unit and legend (Recharts). The running bucket is not part of
 * the line: it would read as a drop, since it has only counted part of its time. It is drawn as a hollow
 * "so far" point instead. Clicking a legend entry hides or shows that series.
 */
export function SeriesChart({
  title,
  unit,
  bucketSize,
  buckets,
  series,
  testId,
}: {
  title: string;
  unit: string;
  bucketSize: string;
  buckets: readonly ChartBucket[];
  series: readonly ChartSeries[];
  testId: string;
}) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const rows = buckets.map((bucket, i) => {
    const row: Record<string, number | string | null> = { time: timeLabel(bucket.start, bucketSize) };
    for (const s of series) {
      const value = s.values[i] ?? null;
      row[s.name] = bucket.partial ? null : value;
      row[s.name + SO_FAR] = bucket.partial ? value : null;
    }
    return row;
  });
  const toggle = (name: string) => {
    const next = new Set(hidden);
    if (!next.delete(name)) next.add(name);
    setHidden(next);
  };
  return (
    <figure className="chart-card" data-testid={testId}>
      <figcaption>
        {title} <small>({unit})</small>
      </figcaption>
      {series.length === 0 ? (
        <p className="empty">No messages in this period.</p>
      ) : (
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
            <CartesianGrid stroke="#e2e8f0" />
            <XAxis dataKey="time" minTickGap={24} tick={{ fontSize: 11 }}>
              <Label value="time (local)" position="insideBottom" offset={-16} fontSize={11} />
            </XAxis>
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={56}>
              <Label
                value={unit}
                angle={-90}
                position="insideLeft"
                fontSize={11}
                style={{ textAnchor: 'middle' }}
              />
            </YAxis>
            <Tooltip formatter={(value) => (typeof value === 'number' ? `${value} ${unit}` : value)} />
            <Legend
              verticalAlign="top"
              wrapperStyle={{ fontSize: 12 }}
              onClick={(entry) => toggle(String(entry.dataKey))}
            />
            {series.map((s, i) => (
              <Line
                key={s.name}
                dataKey={s.name}
                name={s.name}
                stroke={colourOf(i)}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
                hide={hidden.has(s.name)}
              />
            ))}
            {series.map((s, i) => (
              <Line
                key={s.name + SO_FAR}
                dataKey={s.name + SO_FAR}
                name={s.name + SO_FAR}
                stroke={colourOf(i)}
                legendType="none"
                isAnimationActive={false}
                hide={hidden.has(s.name)}
                dot={({ cx, cy, value, index }) =>
                  value === null || value === undefined ? (
                    <g key={index} />
                  ) : (
                    <circle
                      key={index}
                      className="so-far-dot"
                      data-series={s.name}
                      data-value={value}
                      cx={cx}
                      cy={cy}
                      r={5}
                      fill="#fff"
                      stroke={colourOf(i)}
                      strokeWidth={2}
                    />
                  )
                }
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
