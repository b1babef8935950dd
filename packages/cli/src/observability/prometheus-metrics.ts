import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

export interface PrometheusMetrics {
  readonly contentType: string;
  /** Collects every instrument (observable gauges are read now) and renders the Prometheus text format. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Bridges the OpenTelemetry instruments NimBus records through `@opentelemetry/api` to a Prometheus
 * scrape: registers the global meter provider with the OpenTelemetry Prometheus exporter as its reader
 * (no server of its own; the WebApp and the Resolver's health port serve `/metrics`).
 */
export function installPrometheusMetrics(serviceName: string): PrometheusMetrics {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({
    readers: [exporter],
    resource: resourceFromAttributes({ 'service.name': serviceName }),
  });
  metrics.setGlobalMeterProvider(provider);
  const serializer = new PrometheusSerializer();
  return {
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    async scrape() {
      const { resourceMetrics, errors } = await exporter.collect();
      if (errors.length > 0) throw new AggregateError(errors, 'Could not collect every metric');
      return serializer.serialize(resourceMetrics);
    },
    async close() {
      await provider.shutdown();
      metrics.disable();
    },
  };
}
