import {
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  metrics,
} from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { MetricName, TelemetryScope } from './names.js';

interface Instruments {
  readonly counters: Map<string, Counter>;
  readonly histograms: Map<string, Histogram>;
}

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
    counter = metrics.getMeter(scope).createCounter(name);
    cache.counters.set(name, counter);
  }
  counter.add(value, attributes);
}

/** Records a duration in milliseconds on a NimBus histogram. */
export function recordDuration(
  scope: TelemetryScope,
  name: MetricName,
  milliseconds: number,
  attributes: Attributes = {},
): void {
  const cache = instruments(scope);
  let histogram = cache.histograms.get(name);
  if (!histogram) {
    histogram = metrics.getMeter(scope).createHistogram(name, { unit: 'ms' });
    cache.histograms.set(name, histogram);
  }
  histogram.record(Math.max(0, milliseconds), attributes);
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
