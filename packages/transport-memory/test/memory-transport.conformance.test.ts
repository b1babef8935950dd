import { ManualClock } from '@nimbus/core';
import { describeTransportConformance } from '@nimbus/core/conformance';
import { createMemoryTransport } from '../src/index.js';

describeTransportConformance('memory', async () => {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock, lockDurationMs: 30_000, maxDeliveryCount: 5 });
  return { transport, clock, cleanup: async () => undefined };
});

describeTransportConformance('memory, system clock', async () => {
  const transport = createMemoryTransport({ lockDurationMs: 400, maxDeliveryCount: 3 });
  return { transport, cleanup: async () => undefined };
});
