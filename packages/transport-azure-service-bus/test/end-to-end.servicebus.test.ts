import { createMemoryMessageStore } from '@nimbus/message-store';
import { describeResolverEndToEnd } from '@nimbus/resolver/e2e';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { describeEngineEndToEnd, type EndToEndFixture } from '@nimbus/testing/e2e';
import { afterAll, beforeAll } from 'vitest';
import { ServiceBusTransport } from '../src/index.js';

// Emulator-verified: the engine and Resolver end-to-end suites over the unmodified @azure/service-bus client.
// One emulator for the file; each case gets a new transport on it and leaves no entity behind.
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.stop();
});

async function serviceBusTransport(): Promise<EndToEndFixture> {
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
    operationTimeoutMs: 10_000,
    // An empty input answers after one short ask; a quiet session after one short receive.
    acceptPollMs: 50,
    receiveSliceMs: 50,
  });
  return {
    transport,
    clock: null,
    // Settlements and publishes are acknowledged before they return, so a short wait is only for the round trip.
    waitMs: 50,
    scheduleLagMs: 100,
    async cleanup() {
      for (const topic of [...emulator.namespace.topics.values()]) emulator.namespace.deleteTopic(topic.name);
    },
  };
}

describeEngineEndToEnd('azure service bus (emulator)', serviceBusTransport);

describeResolverEndToEnd('memory store, azure service bus transport (emulator)', {
  openStore: async () => createMemoryMessageStore({ env: {} }),
  openTransport: serviceBusTransport,
});
