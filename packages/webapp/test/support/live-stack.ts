import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  consoleLogger,
  defineEndpoint,
  defineEvent,
  definePlatform,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import {
  InProcessStateChangeNotifier,
  type NimBusMessageStore,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createResolver } from '@nimbus/resolver';
import { createEndpointHost, createPublisher, createSubscriber, type Publisher } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { z } from 'zod';
import {
  type BulkJobStore,
  createMemoryBulkJobStore,
  createSqlIdentityStore,
  createWebApp,
} from '../../src/index.js';
import { SEEDED_ADMIN_ENV } from './seeded-admin.js';

/** NIMBUS_TEST_LOG=1 shows the stack's logs when a run needs explaining. */
const testLogger = process.env.NIMBUS_TEST_LOG === '1' ? consoleLogger : silentLogger;

export const CUSTOMER_SESSION = 'cust-7';
/** The ERP refuses anything else; the operator's edit makes a refused payload pass. */
const VAT_NUMBER = /^NL\d{9}B\d{2}$/;

export const CustomerChanged = defineEvent('CustomerChanged', {
  schema: z.object({ customerId: z.string(), revision: z.number().int(), vatNumber: z.string() }),
  sessionKey: 'customerId',
});

export const livePlatform = definePlatform([
  defineEndpoint('Crm', { produces: [CustomerChanged] }),
  defineEndpoint('Erp', { consumes: [CustomerChanged] }),
]);

/** The on-call platform: Erp and Billing both consume Crm's CustomerChanged. */
const twoConsumerPlatform = definePlatform([
  defineEndpoint('Crm', { produces: [CustomerChanged] }),
  defineEndpoint('Erp', { consumes: [CustomerChanged] }),
  defineEndpoint('Billing', { consumes: [CustomerChanged] }),
]);

/** One handler call: which endpoint saw which revision of which customer, and whether it succeeded. */
export interface HandledEvent {
  readonly endpoint: string;
  readonly customerId: string;
  readonly revision: number;
  readonly vatNumber: string;
  readonly ok: boolean;
}

export interface LiveStackOptions {
  readonly uiDistDir: string;
  /** Also run a Billing endpoint consuming CustomerChanged (the on-call scenario's second endpoint). */
  readonly withBilling?: boolean;
}

export interface LiveStack {
  readonly url: string;
  /** Crm's publisher. */
  readonly crm: Publisher;
  /** `revision:vatNumber` of every payload the Erp handler saw, in order (including refused ones). */
  readonly handled: string[];
  /** Every handler call at every consuming endpoint, in order. */
  readonly handledAll: HandledEvent[];
  /**
   * While false, every handler refuses every customer: the VAT registry does not know the number (one cause
   * at every endpoint, so one failure group). True by default.
   */
  vatRegistryUp: boolean;
  /** The store the Resolver writes, for tests that seed rows directly (notify through `notifier` after). */
  readonly store: NimBusMessageStore;
  readonly notifier: InProcessStateChangeNotifier;
  /** The WebApp's bulk jobs (tests leave a job behind as an instance that stopped would). */
  readonly bulkJobStore: BulkJobStore;
  /** The Erp rows of the test's session, straight from the store (for failure diagnostics). */
  sessionRows(): Promise<readonly UnresolvedEvent[]>;
  close(): Promise<void>;
}

/**
 * The whole bus in this process: memory transport (system clock), the Erp endpoint host running a real
 * handler, the Resolver writing into a SQLite message store, and the WebApp on 127.0.0.1:0 over the same
 * store file (identity tables included), transport and notifier.
 */
export async function startLiveStack(options: LiveStackOptions): Promise<LiveStack> {
  const platform = options.withBilling ? twoConsumerPlatform : livePlatform;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-live-'));
  const filename = path.join(dir, 'nimbus.db');
  const stops: (() => Promise<void>)[] = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // The store is the one emitter: it tells the notifier after each committed write (the Resolver's and the
    // WebApp's), and the WebApp listens to the same notifier.
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename,
      env: {},
      retentionSweep: false,
      notifier,
    });
    stops.push(() => store.close());
    const identityStore = createSqlIdentityStore({ dialect: 'sqlite', filename });
    stops.push(() => identityStore.close());
    const transport = createMemoryTransport();
    stops.push(() => transport.close());
    await transport.applyTopology(topologyFromPlatform(platform));

    const resolver = createResolver({
      transport,
      store,
      logger: testLogger,
      options: { maxConcurrentSessions: 4, acceptWaitMs: 200, sessionIdleTimeoutMs: 500 },
    });
    await resolver.start();
    stops.push(() => resolver.stop());

    const handled: string[] = [];
    const handledAll: HandledEvent[] = [];
    const registry = { up: true };
    const consumers = options.withBilling ? ['Erp', 'Billing'] : ['Erp'];
    for (const endpoint of consumers) {
      const subscriber = createSubscriber().on(CustomerChanged, (event) => {
        if (endpoint === 'Erp') handled.push(`${event.revision}:${event.vatNumber}`);
        const ok = registry.up && VAT_NUMBER.test(event.vatNumber);
        handledAll.push({
          endpoint,
          customerId: event.customerId,
          revision: event.revision,
          vatNumber: event.vatNumber,
          ok,
        });
        if (!registry.up) {
          throw new Error(
            `VAT number '${event.vatNumber}' of customer ${event.customerId} is not registered`,
          );
        }
        if (!ok) {
          throw new Error(
            `ERP refused customer ${event.customerId}: VAT number '${event.vatNumber}' is malformed`,
          );
        }
      });
      const host = createEndpointHost({
        platform,
        endpoint,
        transport,
        subscriber,
        logger: testLogger,
        processor: { maxConcurrentSessions: 4, acceptWaitMs: 200, sessionIdleTimeoutMs: 500 },
      });
      await host.start();
      stops.push(() => host.stop());
    }

    const bulkJobStore = createMemoryBulkJobStore();
    const webApp = await createWebApp({
      bulkJobStore,
      store,
      identityStore,
      transport,
      platform,
      notifier,
      logger: testLogger,
      env: SEEDED_ADMIN_ENV,
      uiDistDir: options.uiDistDir,
      sseKeepAliveMs: 60_000,
    });
    stops.push(() => webApp.close());
    const url = await webApp.listen({ host: '127.0.0.1', port: 0 });
    const crm = createPublisher({ transport, endpoint: 'Crm', platform });
    const sessionRows = async () =>
      (
        await store.getEventsByFilter({
          filter: { endpointId: 'Erp', sessionId: CUSTOMER_SESSION },
          continuationToken: null,
          maxItems: 10,
        })
      ).events;
    return {
      url,
      crm,
      handled,
      handledAll,
      store,
      notifier,
      bulkJobStore,
      sessionRows,
      close,
      get vatRegistryUp() {
        return registry.up;
      },
      set vatRegistryUp(up: boolean) {
        registry.up = up;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
