import { silentLogger, topologyFromPlatform } from '@nimbus/core';
import { describeLifecycleConformance } from '@nimbus/core/conformance';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createEndpointHost, createSubscriber, Publisher } from '../src/index.js';
import { Billing, OrderPlaced, order, platform, Sales } from './fixtures.js';

describeLifecycleConformance('EndpointHost', async (work) => {
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const subscriber = createSubscriber().on(OrderPlaced, (_event, context) => work(context.signal));
  const component = createEndpointHost({
    platform,
    endpoint: Billing.id,
    transport,
    subscriber,
    logger: silentLogger,
    processor: { acceptWaitMs: 50 },
  });
  const sales = new Publisher({ transport, endpoint: Sales });
  return {
    component,
    signalsWork: true,
    trigger: async () => {
      await sales.publish(OrderPlaced, order(1));
    },
    cleanup: () => transport.close(),
  };
});
