import { type BatchObservableResult, metrics, type ObservableResult } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { RESOLVER_INPUT } from '../transport/routing.js';
import type { Transport } from '../transport/transport.js';
import { METRIC_CATALOG } from './metric-catalog.js';
import { MetricName, TelemetryAttribute, TelemetryScope } from './names.js';

export interface BusGaugeSources {
  readonly transport: Pick<Transport, 'counts' | 'peek'>;
  /** The endpoints to report (their inputs); read at every collection. */
  readonly endpoints: () => Promise<readonly string[]>;
  /** Blocked sessions of an endpoint (from the store); leave out to skip that gauge. */
  readonly blockedSessions?: (endpointId: string) => Promise<number>;
  /** Report the Resolver lag (age of the oldest message on the Resolver input). Default true. */
  readonly resolverLag?: boolean;
  readonly clock: Pick<Clock, 'now'>;
  readonly logger: Logger;
}

const STATES = ['active', 'scheduled', 'parked', 'dead_lettered'] as const;

/**
 * Observable gauges read when metrics are collected (a Prometheus scrape): messages per endpoint input and
 * state, blocked sessions per endpoint, and the Resolver lag. Returns the function that stops observing.
 * A failed read is logged and leaves that collection without the gauge; it never fails the scrape.
 */
export function observeBusGauges(sources: BusGaugeSources): () => void {
  const meter = metrics.getMeter(TelemetryScope.Consumer);
  const describe = (name: MetricName) => ({ description: METRIC_CATALOG[name].description });
  const messages = meter.createObservableGauge(
    MetricName.EndpointMessages,
    describe(MetricName.EndpointMessages),
  );
  const blocked = meter.createObservableGauge(
    MetricName.EndpointBlockedSessions,
    describe(MetricName.EndpointBlockedSessions),
  );
  const lag = metrics
    .getMeter(TelemetryScope.Resolver)
    .createObservableGauge(MetricName.ResolverLag, { unit: 's', ...describe(MetricName.ResolverLag) });
  const callback = async (observer: BatchObservableResult) => {
    try {
      for (const endpointId of await sources.endpoints()) {
        const endpoint = { [TelemetryAttribute.Endpoint]: endpointId };
        const counts = await sources.transport.counts(endpointId);
        const values = [counts.active, counts.scheduled, counts.parked, counts.deadLettered];
        for (const [i, state] of STATES.entries())
          observer.observe(messages, values[i] ?? 0, {
            ...endpoint,
            [TelemetryAttribute.MessageState]: state,
          });
        if (sources.blockedSessions)
          observer.observe(blocked, await sources.blockedSessions(endpointId), endpoint);
      }
    } catch (error) {
      sources.logger.warn({ error }, 'Could not read the bus gauges for this metrics collection');
    }
  };
  const observeLag = async (result: ObservableResult) => {
    try {
      const [oldest] = await sources.transport.peek(RESOLVER_INPUT, { max: 1 });
      result.observe(oldest ? Math.max(0, sources.clock.now() - oldest.enqueuedAt.getTime()) / 1000 : 0);
    } catch (error) {
      sources.logger.warn({ error }, 'Could not read the Resolver lag for this metrics collection');
    }
  };
  meter.addBatchObservableCallback(callback, [messages, blocked]);
  if (sources.resolverLag !== false) lag.addCallback(observeLag);
  return () => {
    meter.removeBatchObservableCallback(callback, [messages, blocked]);
    lag.removeCallback(observeLag);
  };
}
