import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createEndpointHost, createSubscriber } from '@nimbus/sdk';
import { MemoryTransport } from '@nimbus/transport-memory';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createSqlIdentityStore, createWebApp } from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';

const OrderPlaced = defineEvent('OrderPlaced', { schema: z.object({ orderId: z.string() }) });
const platform = definePlatform([
  defineEndpoint('Shop', { produces: [OrderPlaced] }),
  defineEndpoint('Billing', { consumes: [OrderPlaced] }),
]);
const ledger = { reachable: false, async ping() {} };

it('docs/sdk.md and docs/webapp.md examples: a custom check, shown and paused through the WebApp', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-docs-monitoring-'));
  const transport = new MemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const subscriber = createSubscriber().on(OrderPlaced, async () => {});
  // --- sdk example start ---
  const host = createEndpointHost({
    platform,
    endpoint: 'Billing',
    transport, // the SQL, Service Bus and memory transports keep the control state checks report to
    subscriber,
    customChecks: [
      {
        name: 'ledger-database',
        intervalMs: 15_000,
        run: async () => {
          if (!ledger.reachable) return { healthy: false, reason: 'ledger database refuses connections' };
          await ledger.ping();
          return { healthy: true };
        },
      },
    ],
  });
  await host.start(); // runs every check once before it takes messages, then every intervalMs
  // --- sdk example end ---
  const webApp = await createWebApp({
    store: createMemoryMessageStore(),
    transport,
    platform,
    identityStore: createSqlIdentityStore({ dialect: 'sqlite', filename: path.join(dir, 'nimbus.db') }),
    logger: silentLogger,
    env: SEEDED_ADMIN_ENV,
  });
  const url = await webApp.listen({ host: '127.0.0.1', port: 0 });
  const api = new ApiClient(url);
  await api.login('admin@local', 'Local!Admin123');
  // --- webapp example start ---
  const checks = await api.get('/api/custom-checks');
  // [{ endpointId: 'Billing', name: 'ledger-database', healthy: false, reason: 'ledger database refuses connections', … }]
  await api.post('/api/monitoring/Billing/pause', { comment: 'ledger maintenance' });
  const monitoring = await api.get('/api/monitoring?windowMinutes=5');
  // inputs: [{ input: 'Billing', backlog: 0, paused: true, processingAvgMs, criticalAvgMs, throughputPerSecond, … }]
  await api.post('/api/monitoring/Billing/resume', {});
  await api.put('/api/monitoring/Billing/thresholds', { maxBacklog: 500, maxCriticalTimeMs: 60_000 });
  // --- webapp example end ---
  expect(checks.body).toMatchObject([
    {
      endpointId: 'Billing',
      name: 'ledger-database',
      healthy: false,
      reason: 'ledger database refuses connections',
    },
  ]);
  const billing = (monitoring.body as { inputs: { input: string; paused: boolean }[] }).inputs.find(
    (i) => i.input === 'Billing',
  );
  expect(billing).toMatchObject({ paused: true });
  expect([...(await transport.control.pausedInputs())]).toEqual([]);
  expect((await transport.control.inputStates())[0]).toMatchObject({
    maxBacklog: 500,
    maxCriticalTimeMs: 60_000,
  });
  await webApp.close();
  await host.stop();
  await transport.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
