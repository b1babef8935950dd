import { setTimeout as sleep } from 'node:timers/promises';
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import { createMemoryMessageStore, MessageAuditType } from '@nimbus/message-store';
import { createEndpointHost, createPublisher, createSubscriber, type EndpointHost } from '@nimbus/sdk';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import {
  createMemoryIdentityStore,
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  type WebApp,
} from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../packages/webapp/test/support/api-client.js';

// Issue #26 on Service Bus (emulator-verified): the console pauses an input that two adapter hosts consume, each
// host on its own connection to the namespace as separate processes would be. While paused the hosts take nothing
// (what they hold finishes); after the resume the messages published meanwhile are handled, in order per session.

const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), n: z.number().int() }),
  sessionKey: 'orderId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [OrderPlaced] }),
  defineEndpoint('Erp', { consumes: [OrderPlaced] }),
]);
const POLL_MS = 200;
const WAIT = { timeout: 20_000, interval: 50 };

interface Handled {
  readonly host: string;
  readonly orderId: string;
  readonly n: number;
}

describe('pausing an input from the console on Service Bus (two hosts, emulator)', () => {
  let emulator: RunningEmulator;
  const transports: ServiceBusTransport[] = [];
  const hosts: EndpointHost[] = [];
  let webApp: WebApp;
  const store = createMemoryMessageStore();
  const handled: Handled[] = [];
  /** Handlers of the order 'slow' wait for this before they return. */
  let releaseSlow: () => void = () => undefined;
  let slowStarted = false;
  let admin: ApiClient;

  const transport = () => {
    const created = new ServiceBusTransport({
      connectionString: emulator.connectionString,
      managementCa: emulator.caPem!,
    });
    transports.push(created);
    return created;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const consoleTransport = transport();
    await consoleTransport.applyTopology(topologyFromPlatform(platform));
    for (const name of ['host-a', 'host-b']) {
      const subscriber = createSubscriber().on(OrderPlaced, async (event) => {
        if (event.orderId === 'slow') {
          slowStarted = true;
          await new Promise<void>((resolve) => {
            releaseSlow = resolve;
          });
        }
        handled.push({ host: name, orderId: event.orderId, n: event.n });
      });
      const host = createEndpointHost({
        platform,
        endpoint: 'Erp',
        transport: transport(),
        subscriber,
        logger: silentLogger,
        pausePollMs: POLL_MS,
      });
      await host.start();
      hosts.push(host);
    }
    webApp = await createWebApp({
      store,
      identityStore: createMemoryIdentityStore(),
      transport: consoleTransport,
      platform,
      logger: silentLogger,
      env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD },
      uiDistDir: '/nonexistent',
    });
    admin = new ApiClient(await webApp.listen({ host: '127.0.0.1', port: 0 }));
    await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
  }, 60_000);

  afterAll(async () => {
    releaseSlow();
    for (const host of hosts) await host.stop({ timeoutMs: 5_000 });
    await webApp?.close();
    for (const t of transports) await t.close();
    await emulator?.stop();
  });

  it('no new message is handled while paused; in-flight work finishes; after the resume all are handled in order, both audited', {
    timeout: 90_000,
  }, async () => {
    const crm = createPublisher({ transport: transports[0]!, endpoint: platform.getEndpoint('Crm')! });
    const publish = async (orderId: string, from: number, to: number) => {
      for (let n = from; n <= to; n++) await crm.publish(OrderPlaced, { orderId, n });
    };
    await publish('order-1', 1, 2);
    await expect.poll(() => handled.length, WAIT).toBe(2);

    // A handler is running when the pause comes: it finishes, and nothing new starts.
    await publish('slow', 1, 1);
    await expect.poll(() => slowStarted, WAIT).toBe(true);
    const paused = await admin.post('/api/monitoring/Erp/pause', { comment: 'ERP upgrade' });
    expect(paused, JSON.stringify(paused.body)).toMatchObject({
      status: 200,
      body: { input: 'Erp', paused: true },
    });
    await sleep(POLL_MS * 3); // each host reads the flag within its poll
    releaseSlow();
    await expect.poll(() => handled.some((h) => h.orderId === 'slow'), WAIT).toBe(true);

    const before = handled.length;
    await publish('order-1', 3, 6);
    await publish('order-2', 1, 4);
    const monitoring = async () => {
      const answer = (await admin.get('/api/monitoring')).body as {
        controllable: boolean;
        inputs: { input: string; paused: boolean; pausedBy: string | null; backlog: number | null }[];
      };
      return { controllable: answer.controllable, erp: answer.inputs.find((i) => i.input === 'Erp') };
    };
    await expect.poll(async () => (await monitoring()).erp?.backlog, WAIT).toBe(8);
    await sleep(2_000);
    expect(handled.length, 'handled while paused').toBe(before);
    expect(await monitoring()).toMatchObject({
      controllable: true,
      erp: { paused: true, pausedBy: 'Administrator', backlog: 8 },
    });

    expect((await admin.post('/api/monitoring/Erp/resume', {})).status).toBe(200);
    await expect.poll(() => handled.length, WAIT).toBe(before + 8);
    for (const orderId of ['order-1', 'order-2']) {
      const order = handled.filter((h) => h.orderId === orderId).map((h) => h.n);
      expect(order, orderId).toEqual(orderId === 'order-1' ? [1, 2, 3, 4, 5, 6] : [1, 2, 3, 4]);
    }
    expect((await monitoring()).erp).toMatchObject({ paused: false });

    const audits = async (type: MessageAuditType) =>
      (await store.searchAudits({ filter: { auditType: type }, continuationToken: null, maxItems: 20 }))
        .audits;
    const pauses = await audits(MessageAuditType.PauseInput);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]!.audit.data).toContain('ERP upgrade');
    expect(await audits(MessageAuditType.ResumeInput)).toHaveLength(1);
  });
});
