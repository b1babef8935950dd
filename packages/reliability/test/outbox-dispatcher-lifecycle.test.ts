import { silentLogger } from '@nimbus/core';
import { describeLifecycleConformance, holdingCalls } from '@nimbus/core/conformance';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { MemoryOutboxStore, OutboxDispatcher } from '../src/index.js';

// The held work is the next poll's read of the outbox (polls every 20 ms here; the store takes no signal).
describeLifecycleConformance('OutboxDispatcher', async (work) => {
  const transport = createMemoryTransport();
  const outbox = holdingCalls(new MemoryOutboxStore(), ['getPending'], () => work());
  return {
    component: new OutboxDispatcher({
      outbox: outbox.proxy,
      transport,
      pollIntervalMs: 20,
      logger: silentLogger,
    }),
    signalsWork: false,
    trigger: async () => outbox.arm(),
    cleanup: () => transport.close(),
  };
});
