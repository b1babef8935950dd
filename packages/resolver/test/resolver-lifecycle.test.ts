import { encodeEnvelope, silentLogger } from '@nimbus/core';
import { describeLifecycleConformance } from '@nimbus/core/conformance';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createResolver, type ResolverStore } from '@nimbus/resolver';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { ENDPOINTS } from './support/harness.js';
import { eventRequest } from './support/messages.js';

/** The memory store, whose writes first run the suite's held work (store calls take no signal). */
const WRITES = new Set<PropertyKey>(['writeBatch', 'writeStatus', 'storeMessage']);

function holdingWrites(store: ResolverStore, work: () => Promise<void>): ResolverStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (!WRITES.has(property) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await work();
        return value.apply(target, args);
      };
    },
  });
}

describeLifecycleConformance('Resolver', async (work) => {
  const transport = createMemoryTransport();
  await transport.applyTopology({ endpoints: ENDPOINTS, routes: [] });
  const store = createMemoryMessageStore({ env: {} });
  const component = createResolver({
    transport,
    store: holdingWrites(store, () => work()),
    logger: silentLogger,
    options: { maxConcurrentSessions: 2, sessionIdleTimeoutMs: 50, acceptWaitMs: 50 },
  });
  return {
    component,
    signalsWork: false,
    trigger: () =>
      transport.publish([
        { source: 'Billing', messages: [encodeEnvelope(eventRequest({ sessionId: 'customer-1' }))] },
      ]),
    cleanup: async () => {
      await transport.close();
      await store.stop();
    },
  };
});
