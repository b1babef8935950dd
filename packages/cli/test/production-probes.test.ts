import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, eventually } from './support/cli-process.js';
import { parsePrometheus, sumOf } from './support/prometheus-text.js';

const ADAPTER_HOST = fileURLToPath(new URL('./support/sample-adapter-host.mjs', import.meta.url));
const ADAPTER_METRICS_PORT = 16210;

describe('health and metrics of separate processes (SQLite): resolver --health-port, webapp, an adapter host', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-probes-'));
  const env = cleanEnv({ NIMBUS_DATA_DIR: dataDir });
  const METRICS_TOKEN = 'prometheus-scrape-secret';
  let resolver: CliDaemon;
  let webapp: CliDaemon;
  let adapters: CliDaemon | null = null;
  let healthUrl: string;
  let webUrl: string;

  beforeAll(async () => {
    assertCliBuilt();
    resolver = new CliDaemon(
      [
        'resolver',
        '--health-port',
        '0',
        '--migration-mode',
        'AutoApply',
        '--platform',
        '@nimbus/example-crm-erp',
      ],
      env,
    );
    healthUrl = (await resolver.waitFor(/health at (http:\/\/\S+)/, 30_000))[1] as string;
    await resolver.waitFor(/NimBus resolver ready/, 30_000);
    // The WebApp's own tables (identity, alerts, bulk jobs) are migrated by the WebApp, as the resolver does the store's.
    webapp = new CliDaemon(
      ['webapp', '--port', '0', '--migration-mode', 'AutoApply', '--platform', '@nimbus/example-crm-erp'],
      { ...env, NIMBUS_METRICS_TOKEN: METRICS_TOKEN },
    );
    webUrl = (await webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 30_000))[1] as string;
  }, 70_000);

  afterAll(async () => {
    await adapters?.stop();
    await webapp?.stop();
    await resolver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const scrape = async (url: string) => {
    // The WebApp's /metrics wants its token (or a site role); the health port and the adapter host do not.
    const response = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return parsePrometheus(await response.text());
  };

  it('answers /healthz and /readyz on both, and a JSON 404 for unknown paths', async () => {
    for (const base of [healthUrl, webUrl]) {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, checks: { store: { ready: true } } });
    }
    for (const url of [`${healthUrl}/api/nope`, `${webUrl}/api/nope`, `${webUrl}/api/endpoints/Erp/nope`]) {
      const response = await fetch(url);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'NotFound' });
    }
  });

  it('metrics change as messages flow: Resolver writes, endpoint gauges, blocked sessions, handler counters', {
    timeout: 60_000,
  }, async () => {
    const before = await scrape(`${healthUrl}/metrics`);
    const writesBefore = sumOf(before, 'nimbus_resolver_writes_total', { nimbus_endpoint: 'Erp' });
    expect(sumOf(before, 'nimbus_endpoint_sessions_blocked', { nimbus_endpoint: 'Erp' })).toBe(0);
    expect(
      before.some((s) => s.name === 'nimbus_resolver_lag_seconds'),
      resolver.stderr,
    ).toBe(true);

    adapters = new CliDaemon(
      [],
      {
        ...env,
        NIMBUS_TEST_TRANSPORT_PATH: join(dataDir, 'transport.db'),
        NIMBUS_TEST_METRICS_PORT: `${ADAPTER_METRICS_PORT}`,
      },
      ADAPTER_HOST,
    );
    await adapters.waitFor(/adapters ready/, 20_000);

    const after = await eventually(
      async () => {
        const samples = await scrape(`${healthUrl}/metrics`);
        const blocked = sumOf(samples, 'nimbus_endpoint_sessions_blocked', { nimbus_endpoint: 'Erp' });
        const parked = sumOf(samples, 'nimbus_endpoint_messages', {
          nimbus_endpoint: 'Erp',
          nimbus_message_state: 'parked',
        });
        return blocked === 1 && parked === 2 ? samples : undefined;
      },
      30_000,
      'the blocked Erp session with two parked messages in the metrics',
    );
    expect(sumOf(after, 'nimbus_resolver_writes_total', { nimbus_endpoint: 'Erp' })).toBeGreaterThanOrEqual(
      writesBefore + 3,
    );
    expect(sumOf(after, 'nimbus_store_operation_duration_seconds_count')).toBeGreaterThan(0);

    expect((await fetch(`${webUrl}/metrics`)).status).toBe(401);
    const web = await scrape(`${webUrl}/metrics`);
    // The bus gauges come from the Resolver only (a dashboard sum over both would count them twice).
    expect(web.some((s) => s.name === 'nimbus_endpoint_sessions_blocked')).toBe(false);
    expect(web.find((s) => s.name === 'target_info')?.labels.service_name).toBe('nimbus-webapp');

    const host = await scrape(`http://127.0.0.1:${ADAPTER_METRICS_PORT}/metrics`);
    expect(
      sumOf(host, 'nimbus_message_processed_total', { nimbus_endpoint: 'Erp', nimbus_outcome: 'failed' }),
    ).toBe(1);
    expect(
      sumOf(host, 'nimbus_message_process_duration_seconds_count', { nimbus_endpoint: 'Erp' }),
    ).toBeGreaterThanOrEqual(3);
  });

  it('SIGTERM stops every process with exit code 0', { timeout: 40_000 }, async () => {
    expect(adapters).not.toBeNull();
    expect(await adapters?.stop()).toBe(0);
    adapters = null;
    expect(await webapp.stop()).toBe(0);
    expect(await resolver.stop()).toBe(0);
    expect(resolver.stdout).toContain('NimBus resolver stopped.');
  });
});
