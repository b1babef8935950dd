import { prometheusUnitViews } from '@nimbus/core';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { collectDefaultMetrics, Registry } from 'prom-client';

export interface PrometheusMetrics {
  readonly contentType: string;
  /** Collects every instrument (observable gauges are read now) and renders the Prometheus text format. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Bridges the OpenTelemetry instruments NimBus records through `@opentelemetry/api` to a Prometheus
 * scrape: registers the global meter provider with the OpenTelemetry Prometheus exporter as its reader
 * (no server of its own; the WebApp and the Resolver's health port serve `/metrics`). Seconds-unit
 * instruments are renamed to end in `_seconds`; the process and Node.js runtime metrics
 * (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `nodejs_eventloop_lag_seconds`, …) come
 * from prom-client's default collectors on a registry of this process' own, appended to the same scrape.
 */
export function installPrometheusMetrics(serviceName: string): PrometheusMetrics {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({
    readers: [exporter],
    views: prometheusUnitViews(),
    resource: resourceFromAttributes({ 'service.name': serviceName }),
  });
  metrics.setGlobalMeterProvider(provider);
  const serializer = new PrometheusSerializer();
  const runtime = new Registry();
  collectDefaultMetrics({ register: runtime });
  return {
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    async scrape() {
      const { resourceMetrics, errors } = await exporter.collect();
      if (errors.length > 0) throw new AggregateError(errors, 'Could not collect every metric');
      return `${serializer.serialize(resourceMetrics).trimEnd()}\n${await runtime.metrics()}`;
    },
    async close() {
      runtime.clear();
      await provider.shutdown();
      metrics.disable();
    },
  };
}
