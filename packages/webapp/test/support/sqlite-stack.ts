import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consoleLogger, silentLogger, topologyFromPlatform } from '@nimbus/core';
import { InProcessStateChangeNotifier, type NimBusMessageStore } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createResolver } from '@nimbus/resolver';
import { createEndpointHost, createSubscriber } from '@nimbus/sdk';
import { createSqlTransport } from '@nimbus/transport-sql';
import {
  type BulkJobStore,
  createSqlBulkJobStore,
  createSqlIdentityStore,
  createWebApp,
  type WebApp,
  type WebAppOptions,
} from '../../src/index.js';
import { CustomerChanged, livePlatform } from './live-stack.js';
import { SEEDED_ADMIN_ENV } from './seeded-admin.js';

const testLogger = process.env.NIMBUS_TEST_LOG === '1' ? consoleLogger : silentLogger;

export interface SqliteStack {
  readonly url: string;
  readonly dir: string;
  readonly store: NimBusMessageStore;
  readonly bulkJobStore: BulkJobStore;
  readonly notifier: InProcessStateChangeNotifier;
  /** Erp handler calls so far. */
  handled: number;
  /** While false the Erp handler throws (one cause: the VAT registry is down). */
  registryUp: boolean;
  /** Stops the WebApp only and starts a new one over the same files (a WebApp restart). */
  restartWebApp(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The default stack as `nimbus dev` runs it, in this process: the SQL message store and the SQL transport on
 * SQLite files (separate files, as the CLI keeps them), the Resolver, the Erp endpoint host with a real
 * handler, and the WebApp with its identity and bulk-job tables on SQLite too.
 */
export async function startSqliteStack(
  options: { uiDistDir: string; webApp?: Partial<WebAppOptions> } = { uiDistDir: '/nonexistent' },
): Promise<SqliteStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-sqlite-stack-'));
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
      env: {},
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

    const state = { handled: 0, registryUp: true };
    const subscriber = createSubscriber().on(CustomerChanged, (event) => {
      state.handled += 1;
      if (!state.registryUp)
        throw new Error(`VAT number '${event.vatNumber}' of customer ${event.customerId} is not registered`);
    });
    const host = createEndpointHost({
      platform: livePlatform,
      endpoint: 'Erp',
      transport,
      subscriber,
      logger: testLogger,
    });
    await host.start();
    stops.push(() => host.stop());

    const identityStore = createSqlIdentityStore({
      dialect: 'sqlite',
      filename: path.join(dir, 'identity.db'),
    });
    stops.push(() => identityStore.close());
    const bulkJobStore = createSqlBulkJobStore({
      dialect: 'sqlite',
      filename: path.join(dir, 'bulk-jobs.db'),
    });
    stops.push(() => bulkJobStore.close());

    const open = async (): Promise<{ webApp: WebApp; url: string }> => {
      const webApp = await createWebApp({
        bulkJobStore,
        store,
        identityStore,
        transport,
        platform: livePlatform,
        notifier,
        logger: testLogger,
        env: SEEDED_ADMIN_ENV,
        uiDistDir: options.uiDistDir,
        sseKeepAliveMs: 60_000,
        ...options.webApp,
      });
      return { webApp, url: await webApp.listen({ host: '127.0.0.1', port: 0 }) };
    };
    let current = await open();
    stops.push(() => current.webApp.close());

    return {
      get url() {
        return current.url;
      },
      dir,
      store,
      bulkJobStore,
      notifier,
      get handled() {
        return state.handled;
      },
      set handled(n: number) {
        state.handled = n;
      },
      get registryUp() {
        return state.registryUp;
      },
      set registryUp(up: boolean) {
        state.registryUp = up;
      },
      restartWebApp: async () => {
        await current.webApp.close();
        current = await open();
        return current.url;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
