import {
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  metrics,
} from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import { METRIC_CATALOG } from './metric-catalog.js';
import type { MetricName, TelemetryScope } from './names.js';

interface Instruments {
  readonly counters: Map<string, Counter>;
  readonly histograms: Map<string, Histogram>;
}

/** Bucket boundaries for durations, from 5 ms to 5 minutes. */
export const DURATION_BUCKETS_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 300,
];

// Instruments are cached per meter provider: the global provider can be replaced after the first use.
const byProvider = new WeakMap<MeterProvider, Map<string, Instruments>>();

function instruments(scope: string): Instruments {
  const provider = metrics.getMeterProvider();
  let scopes = byProvider.get(provider);
  if (!scopes) {
    scopes = new Map();
    byProvider.set(provider, scopes);
  }
  let found = scopes.get(scope);
  if (!found) {
    found = { counters: new Map(), histograms: new Map() };
    scopes.set(scope, found);
  }
  return found;
}

/** Adds `value` (default 1) to a NimBus counter. */
export function countMetric(
  scope: TelemetryScope,
  name: MetricName,
  attributes: Attributes = {},
  value = 1,
): void {
  const cache = instruments(scope);
  let counter = cache.counters.get(name);
  if (!counter) {
    counter = metrics.getMeter(scope).createCounter(name, {
      description: METRIC_CATALOG[name].description,
    });
    cache.counters.set(name, counter);
  }
  counter.add(value, attributes);
}

/**
 * Records a duration on a NimBus histogram. Callers measure in milliseconds; the histogram holds seconds
 * (unit `s`), as the OpenTelemetry semantic conventions ask of every duration.
 */
export function recordDuration(
  scope: TelemetryScope,
  name: MetricName,
  milliseconds: number,
  attributes: Attributes = {},
): void {
  const cache = instruments(scope);
  let histogram = cache.histograms.get(name);
  if (!histogram) {
    histogram = metrics.getMeter(scope).createHistogram(name, {
      unit: 's',
      description: METRIC_CATALOG[name].description,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_SECONDS },
    });
    cache.histograms.set(name, histogram);
  }
  histogram.record(Math.max(0, milliseconds) / 1000, attributes);
}

/** Times `fn` on `clock` and records the duration, with `nimbus.outcome` = completed | failed. */
export async function measureDuration<T>(
  scope: TelemetryScope,
  name: MetricName,
  attributes: Attributes,
  clock: Pick<Clock, 'now'>,
  fn: () => Promise<T> | T,
): Promise<T> {
  const started = clock.now();
  let outcome = 'failed';
  try {
    const result = await fn();
    outcome = 'completed';
    return result;
  } finally {
    recordDuration(scope, name, clock.now() - started, { ...attributes, 'nimbus.outcome': outcome });
  }
}
