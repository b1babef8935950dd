import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { METRIC_CATALOG, type MetricName, prometheusMetricName } from '@nimbus/core';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, eventually } from './support/cli-process.js';
import { selectedMetricNames } from './support/promql-selectors.js';

const ADAPTER_HOST = fileURLToPath(new URL('./support/sample-adapter-host.mjs', import.meta.url));
const ADAPTER_METRICS_PORT = 16230;
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
const DASHBOARD = join(DOCS, 'grafana', 'nimbus-dashboard.json');
const BUS_GAUGES = [
  'nimbus_endpoint_messages',
  'nimbus_endpoint_sessions_blocked',
  'nimbus_resolver_lag_seconds',
];
/** Process and Node.js runtime metrics every service process must export. */
const RUNTIME = [
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'process_start_time_seconds',
  'process_open_fds',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
  'nodejs_gc_duration_seconds',
];
/** Labels Prometheus adds at scrape time (and the histogram bucket label). */
const SCRAPE_LABELS = new Set(['job', 'instance', 'le']);

interface Dashboard {
  readonly panels: readonly {
    readonly title: string;
    readonly targets: readonly { readonly expr: string }[];
  }[];
}

const catalogNames = new Map(
  (Object.keys(METRIC_CATALOG) as MetricName[]).map((name) => [prometheusMetricName(name), name]),
);

/** The family a series name belongs to (`x_bucket` → histogram `x`). */
function familyOf(families: readonly PrometheusFamily[], series: string): PrometheusFamily | undefined {
  return families.find(
    (f) =>
      f.name === series ||
      (f.type === 'HISTOGRAM' && [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`].includes(series)),
  );
}

describe('Prometheus conventions on /metrics of the Resolver, the WebApp and an adapter host (processes, SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-prom-'));
  const env = cleanEnv({ NIMBUS_DATA_DIR: dataDir });
  const METRICS_TOKEN = 'prometheus-scrape-secret';
  const daemons: CliDaemon[] = [];
  const scrapes: Record<'resolver' | 'webapp' | 'adapters', PrometheusFamily[]> = {
    resolver: [],
    webapp: [],
    adapters: [],
  };
  let healthUrl: string;
  let webUrl: string;

  const scrape = async (url: string) => {
    // The WebApp's /metrics wants its token (or a site role); the health port and the adapter host do not.
    const response = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    return parsePrometheusTextFormat(await response.text());
  };

  beforeAll(async () => {
    assertCliBuilt();
    const platform = ['--platform', '@nimbus/example-crm-erp'];
    const resolver = new CliDaemon(
      ['resolver', '--health-port', '0', '--migration-mode', 'AutoApply', ...platform],
      env,
    );
    daemons.push(resolver);
    healthUrl = (await resolver.waitFor(/health at (http:\/\/\S+)/, 90_000))[1] as string;
    await resolver.waitFor(/NimBus resolver ready/, 90_000);
    const webapp = new CliDaemon(['webapp', '--port', '0', '--migration-mode', 'AutoApply', ...platform], {
      ...env,
      NIMBUS_METRICS_TOKEN: METRICS_TOKEN,
    });
    daemons.push(webapp);
    webUrl = (await webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 90_000))[1] as string;
    const adapters = new CliDaemon(
      [],
      {
        ...env,
        NIMBUS_TEST_TRANSPORT_PATH: join(dataDir, 'transport.db'),
        NIMBUS_TEST_METRICS_PORT: `${ADAPTER_METRICS_PORT}`,
      },
      ADAPTER_HOST,
    );
    daemons.push(adapters);
    await adapters.waitFor(/adapters ready/, 60_000);
    // Wait until messages flowed: handler durations on the adapter host, Resolver writes and store calls.
    scrapes.adapters = await eventually(
      async () => {
        const families = await scrape(`http://127.0.0.1:${ADAPTER_METRICS_PORT}/metrics`);
        return familyOf(families, 'nimbus_message_process_duration_seconds_count') ? families : undefined;
      },
      60_000,
      'handler metrics on the adapter host',
    );
    scrapes.resolver = await eventually(
      async () => {
        const families = await scrape(`${healthUrl}/metrics`);
        const writes = families.find((f) => f.name === 'nimbus_resolver_writes_total');
        return writes && writes.metrics.length > 0 ? families : undefined;
      },
      60_000,
      'Resolver writes in the metrics',
    );
    scrapes.webapp = await scrape(`${webUrl}/metrics`);
  }, 360_000);

  afterAll(async () => {
    for (const daemon of daemons.reverse()) await daemon.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives every metric family a HELP text and a TYPE', () => {
    for (const [process, families] of Object.entries(scrapes)) {
      expect(families.length, process).toBeGreaterThan(0);
      for (const family of families) {
        expect(family.help, `${process}: HELP of ${family.name}`).not.toMatch(/^$|description missing/);
        expect(family.type, `${process}: TYPE of ${family.name}`).not.toBe('UNTYPED');
      }
    }
  });

  it('names NimBus metrics with their unit and counters with _total, as the catalog says', () => {
    for (const [process, families] of Object.entries(scrapes)) {
      for (const family of families.filter((f) => f.name.startsWith('nimbus_'))) {
        const name = catalogNames.get(family.name);
        expect(name, `${process}: ${family.name} is not a catalogued NimBus metric`).toBeDefined();
        const info = METRIC_CATALOG[name as MetricName];
        expect(family.type, family.name).toBe(info.kind.toUpperCase());
        if (info.kind === 'counter') expect(family.name).toMatch(/_total$/);
        if (info.unit === 's') expect(family.name).toMatch(/_seconds$/);
        expect(family.help).toBe(info.description);
      }
    }
    const resolverNames = scrapes.resolver.map((f) => f.name);
    expect(resolverNames).toEqual(
      expect.arrayContaining([
        'nimbus_resolver_writes_total',
        'nimbus_resolver_write_duration_seconds',
        'nimbus_store_operation_duration_seconds',
      ]),
    );
    expect(scrapes.adapters.map((f) => f.name)).toEqual(
      expect.arrayContaining(['nimbus_message_processed_total', 'nimbus_message_queue_wait_seconds']),
    );
  });

  it('exports the process and Node.js runtime metrics from the Resolver and the WebApp', () => {
    for (const process of ['resolver', 'webapp'] as const) {
      const names = scrapes[process].map((f) => f.name);
      expect(names, process).toEqual(expect.arrayContaining(RUNTIME));
      const started = scrapes[process].find((f) => f.name === 'process_start_time_seconds');
      expect(Number(started?.metrics[0]?.value)).toBeGreaterThan(Date.now() / 1000 - 3600);
    }
  });

  it('exports the bus gauges from the Resolver only, so a dashboard sum counts them once', () => {
    const names = (process: keyof typeof scrapes) => scrapes[process].map((f) => f.name);
    expect(names('resolver')).toEqual(expect.arrayContaining(BUS_GAUGES));
    for (const gauge of BUS_GAUGES) expect(names('webapp')).not.toContain(gauge);
    const erp = scrapes.resolver
      .find((f) => f.name === 'nimbus_endpoint_messages')
      ?.metrics.filter((m) => m.labels?.nimbus_endpoint === 'Erp');
    expect(erp?.map((m) => m.labels?.nimbus_message_state).sort()).toEqual([
      'active',
      'dead_lettered',
      'parked',
      'scheduled',
    ]);
  });

  it('has every query of the sample Grafana dashboard select exported series and labels', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    const scraped = Object.values(scrapes).flat();
    // A counter shows up at its first increment (no dead-letter happened here): catalogued names count as exported.
    const catalogued = [...catalogNames].map(([prometheus, name]) => ({
      name: prometheus,
      help: METRIC_CATALOG[name].description,
      type: METRIC_CATALOG[name].kind.toUpperCase(),
      metrics: [],
    }));
    const all = [...scraped, ...catalogued];
    const labels = new Set(scraped.flatMap((f) => f.metrics.flatMap((m) => Object.keys(m.labels ?? {}))));
    let selectors = 0;
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        for (const series of selectedMetricNames(expr)) {
          selectors += 1;
          expect(familyOf(all, series), `${panel.title}: ${series} is not exported`).toBeDefined();
        }
        for (const label of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g))
          for (const name of (label[1] ?? '').split(',').map((l) => l.trim()))
            if (!SCRAPE_LABELS.has(name)) expect(labels, `${panel.title}: label ${name}`).toContain(name);
      }
    }
    expect(selectors).toBeGreaterThanOrEqual(dashboard.panels.length);
  });

  it('documents every exported NimBus metric in docs/metrics.md', () => {
    const table = readFileSync(join(DOCS, 'metrics.md'), 'utf8');
    for (const name of catalogNames.keys()) expect(table, name).toContain(`\`${name}\``);
    for (const name of RUNTIME) expect(table, name).toContain(`\`${name}\``);
  });
});
