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
import { createSqlIdentityStore, createWebApp } from '../../src/index.js';

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

export interface LiveStack {
  readonly url: string;
  /** Crm's publisher. */
  readonly crm: Publisher;
  /** `revision:vatNumber` of every payload the Erp handler saw, in order (including refused ones). */
  readonly handled: string[];
  /** The store the Resolver writes, for tests that seed rows directly (notify through `notifier` after). */
  readonly store: NimBusMessageStore;
  readonly notifier: InProcessStateChangeNotifier;
  /** The Erp rows of the test's session, straight from the store (for failure diagnostics). */
  sessionRows(): Promise<readonly UnresolvedEvent[]>;
  close(): Promise<void>;
}

/**
 * The whole bus in this process: memory transport (system clock), the Erp endpoint host running a real
 * handler, the Resolver writing into a SQLite message store, and the WebApp on 127.0.0.1:0 over the same
 * store file (identity tables included), transport and notifier.
 */
export async function startLiveStack(options: { uiDistDir: string }): Promise<LiveStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-live-'));
  const filename = path.join(dir, 'nimbus.db');
  const stops: (() => Promise<void>)[] = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename,
      env: {},
      retentionSweep: false,
    });
    stops.push(() => store.close());
    const identityStore = createSqlIdentityStore({ dialect: 'sqlite', filename });
    stops.push(() => identityStore.close());
    const transport = createMemoryTransport();
    stops.push(() => transport.close());
    await transport.applyTopology(topologyFromPlatform(livePlatform));

    // The Resolver notifies by itself; the WebApp gets the plain store and listens to the same notifier.
    const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
    const resolver = createResolver({
      transport,
      store,
      notifier,
      logger: testLogger,
      options: { maxConcurrentSessions: 4, acceptWaitMs: 200, sessionIdleTimeoutMs: 500 },
    });
    await resolver.start();
    stops.push(() => resolver.stop());

    const handled: string[] = [];
    const subscriber = createSubscriber().on(CustomerChanged, (event) => {
      handled.push(`${event.revision}:${event.vatNumber}`);
      if (!VAT_NUMBER.test(event.vatNumber)) {
        throw new Error(
          `ERP refused customer ${event.customerId}: VAT number '${event.vatNumber}' is malformed`,
        );
      }
    });
    const erp = createEndpointHost({
      platform: livePlatform,
      endpoint: 'Erp',
      transport,
      subscriber,
      logger: testLogger,
      processor: { maxConcurrentSessions: 4, acceptWaitMs: 200, sessionIdleTimeoutMs: 500 },
    });
    await erp.start();
    stops.push(() => erp.stop());

    const webApp = await createWebApp({
      store,
      identityStore,
      transport,
      platform: livePlatform,
      notifier,
      logger: testLogger,
      env: {},
      uiDistDir: options.uiDistDir,
      sseKeepAliveMs: 60_000,
    });
    stops.push(() => webApp.close());
    const url = await webApp.listen({ host: '127.0.0.1', port: 0 });
    const crm = createPublisher({ transport, endpoint: 'Crm', platform: livePlatform });
    const sessionRows = async () =>
      (
        await store.getEventsByFilter({
          filter: { endpointId: 'Erp', sessionId: CUSTOMER_SESSION },
          continuationToken: null,
          maxItems: 10,
        })
      ).events;
    return { url, crm, handled, store, notifier, sessionRows, close };
  } catch (error) {
    await close();
    throw error;
  }
}
