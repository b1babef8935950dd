import { encodeEnvelope, silentLogger } from '@nimbus/core';
import { describeLifecycleConformance, holdingCalls } from '@nimbus/core/conformance';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createHeartbeatScheduler, createResolver } from '@nimbus/resolver';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { ENDPOINTS } from './support/harness.js';
import { eventRequest } from './support/messages.js';

async function memoryDependencies() {
  const transport = createMemoryTransport();
  await transport.applyTopology({ endpoints: ENDPOINTS, routes: [] });
  const store = createMemoryMessageStore({ env: {} });
  const cleanup = async () => {
    await transport.close();
    await store.stop();
  };
  return { transport, store, cleanup };
}

// Store calls take no signal: the held work is the Resolver's own write of the triggering message.
describeLifecycleConformance('Resolver', async (work) => {
  const { transport, store, cleanup } = await memoryDependencies();
  const writes = holdingCalls(store, ['writeBatch', 'writeStatus', 'storeMessage'], () => work());
  const component = createResolver({
    transport,
    store: writes.proxy,
    logger: silentLogger,
    options: { maxConcurrentSessions: 2, sessionIdleTimeoutMs: 50, acceptWaitMs: 50 },
  });
  return {
    component,
    signalsWork: false,
    trigger: async () => {
      writes.arm();
      const request = eventRequest({ sessionId: 'customer-1' });
      await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(request)] }]);
    },
    cleanup,
  };
});

// The held work is the next tick's first store call (ticks every 20 ms here).
describeLifecycleConformance('HeartbeatScheduler', async (work) => {
  const { transport, store, cleanup } = await memoryDependencies();
  const settings = holdingCalls(store, ['getHeartbeatSettings'], () => work());
  return {
    component: createHeartbeatScheduler({
      transport,
      store: settings.proxy,
      catalog: ENDPOINTS,
      logger: silentLogger,
      tickMs: 20,
    }),
    signalsWork: false,
    trigger: async () => settings.arm(),
    cleanup,
  };
});
