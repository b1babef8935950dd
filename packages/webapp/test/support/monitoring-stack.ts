import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consoleLogger, silentLogger, topologyFromPlatform } from '@nimbus/core';
import { InProcessStateChangeNotifier, type NimBusMessageStore } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createResolver } from '@nimbus/resolver';
import { createEndpointHost, createPublisher, createSubscriber, type EndpointHost } from '@nimbus/sdk';
import { createSqlTransport, type SqlTransport } from '@nimbus/transport-sql';
import {
  createSqlIdentityStore,
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  type WebApp,
} from '../../src/index.js';
import { ApiClient } from './api-client.js';
import { CustomerChanged, livePlatform } from './live-stack.js';
import { SEEDED_ADMIN_ENV } from './seeded-admin.js';

const testLogger = process.env.NIMBUS_TEST_LOG === '1' ? consoleLogger : silentLogger;

export const MONITOR_READER = { email: 'monitor-reader@example.test', password: 'Reader!Pass1' };

export interface MonitoringStack {
  readonly url: string;
  readonly store: NimBusMessageStore;
  readonly transport: SqlTransport;
  readonly webApp: WebApp;
  readonly admin: ApiClient;
  /** Erp handler calls so far. */
  readonly handled: number;
  /** What the Erp host's custom check 'vat-registry' answers. */
  registryHealthy: boolean;
  /** Publishes `n` CustomerChanged events from Crm, one session each (`vatNumber` as given). */
  publish(n: number, vatNumber?: string): Promise<void>;
  /** Starts a new Erp host (the adapter process coming back), or stops the running one. */
  startErp(): Promise<void>;
  stopErp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The default stack for the monitoring tests: SQLite store and SQLite transport (separate files, as the CLI keeps
 * them), the Resolver, an Erp endpoint host with a custom check and a fast pause poll, Crm's publisher, and the
 * WebApp with its identity tables on SQLite.
 */
export async function startMonitoringStack(options: { uiDistDir: string }): Promise<MonitoringStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-monitoring-'));
  const stops: (() => Promise<void>)[] = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // The store is the one emitter of state changes; the WebApp listens to the same notifier.
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename: path.join(dir, 'store.db'),
      env: SEEDED_ADMIN_ENV,
      retentionSweep: false,
      notifier,
    });
    stops.push(() => store.close());
    const transport = await createSqlTransport({ dialect: 'sqlite', path: path.join(dir, 'transport.db') });
    stops.push(() => transport.close());
    await transport.applyTopology(topologyFromPlatform(livePlatform));
    const resolver = createResolver({ transport, store, logger: testLogger });
    await resolver.start();
    stops.push(() => resolver.stop());

    const state = { handled: 0, registryHealthy: true };
    let erp: EndpointHost | null = null;
    const startErp = async () => {
      const subscriber = createSubscriber().on(CustomerChanged, () => {
        state.handled += 1;
      });
      erp = createEndpointHost({
        platform: livePlatform,
        endpoint: 'Erp',
        transport,
        subscriber,
        logger: testLogger,
        pausePollMs: 200,
        customChecks: [
          {
            name: 'vat-registry',
            intervalMs: 300,
            run: () =>
              state.registryHealthy
                ? { healthy: true }
                : { healthy: false, reason: 'VAT registry answers 503 Service Unavailable' },
          },
        ],
      });
      await erp.start();
    };
    const stopErp = async () => {
      await erp?.stop({ timeoutMs: 5_000 });
      erp = null;
    };
    await startErp();
    stops.push(stopErp);
    const crm = createPublisher({ transport, endpoint: livePlatform.getEndpoint('Crm')! });

    const identityStore = createSqlIdentityStore({
      dialect: 'sqlite',
      filename: path.join(dir, 'identity.db'),
    });
    stops.push(() => identityStore.close());
    const webApp = await createWebApp({
      store,
      identityStore,
      transport,
      platform: livePlatform,
      notifier,
      logger: testLogger,
      env: SEEDED_ADMIN_ENV,
      uiDistDir: options.uiDistDir,
      sseKeepAliveMs: 60_000,
      alerts: { everyMs: 0, allowPrivateWebhookTargets: true },
    });
    const url = await webApp.listen({ host: '127.0.0.1', port: 0 });
    stops.push(() => webApp.close());
    const admin = new ApiClient(url);
    await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
    const created = await admin.post('/api/users', { ...MONITOR_READER, siteRole: 'Reader' });
    if (created.status !== 201) throw new Error(`user setup failed: ${JSON.stringify(created.body)}`);

    let sequence = 0;
    return {
      url,
      store,
      transport,
      webApp,
      admin,
      get handled() {
        return state.handled;
      },
      get registryHealthy() {
        return state.registryHealthy;
      },
      set registryHealthy(healthy: boolean) {
        state.registryHealthy = healthy;
      },
      publish: async (n, vatNumber = 'NL123456789B01') => {
        for (let i = 0; i < n; i++) {
          sequence += 1;
          await crm.publish(CustomerChanged, {
            customerId: `mon-${sequence}`,
            revision: 1,
            vatNumber,
          });
        }
      },
      startErp,
      stopErp,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
