// An adapter host as its own OS process: the sample Crm/Erp/Credit endpoint hosts on the shared SQL
// transport, publishing the blocked-session scenario (customer C-2001) once, then one message every
// NIMBUS_TEST_TRAFFIC_MS. Compiled packages only (this is what a deployment runs).
import { prometheusUnitViews, topologyFromPlatform } from '@nimbus/core';
import { platform, startSampleAdapters, startTrafficGenerator } from '@nimbus/example-crm-erp';
import { createSqlTransport } from '@nimbus/transport-sql';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

// An adapter host exposes its handler metrics itself: the OpenTelemetry Prometheus exporter's own server, with
// NimBus' views so durations are named `…_seconds` as on the Resolver and the WebApp.
if (process.env.NIMBUS_TEST_METRICS_PORT) {
  const exporter = new PrometheusExporter({ port: Number(process.env.NIMBUS_TEST_METRICS_PORT) });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [exporter], views: prometheusUnitViews() }));
}

const url = process.env.NIMBUS_POSTGRES_URL;
const transport = url
  ? await createSqlTransport({ dialect: 'postgres', connectionString: url })
  : await createSqlTransport({ dialect: 'sqlite', path: process.env.NIMBUS_TEST_TRANSPORT_PATH });
await transport.applyTopology(topologyFromPlatform(platform));
const adapters = await startSampleAdapters({ transport, log: (line) => console.log(`[sample] ${line}`) });
const traffic = await startTrafficGenerator({
  transport,
  intervalMs: Number(process.env.NIMBUS_TEST_TRAFFIC_MS ?? 600_000),
  blockedScenario: process.env.NIMBUS_TEST_BLOCKED_SCENARIO !== '0',
});
console.log('adapters ready');
const stop = async () => {
  await traffic.stop();
  console.log(`published ${traffic.published}`);
  await adapters.stop();
  await transport.close();
  console.log('adapters stopped');
  process.exit(0);
};
process.once('SIGTERM', stop);
// SIGUSR2: stop generating traffic, keep handling.
process.once('SIGUSR2', async () => {
  await traffic.stop();
  console.log(`traffic stopped, published ${traffic.published}`);
});
process.once('SIGINT', stop);
