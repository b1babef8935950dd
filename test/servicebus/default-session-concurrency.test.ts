import { defineEndpoint, defineEvent, definePlatform, topologyFromPlatform } from '@nimbus/core';
import { createEndpointHost, createPublisher, createSubscriber, type EndpointHost } from '@nimbus/sdk';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';

// An EndpointHost with the default maxConcurrentSessions (32 accept loops on one transport) once took no session
// at all: each next-session ask gave its session up to hand it to the main client, and the broker passed it to
// another waiting ask of the same transport, round and round. See docs/transport-azure-service-bus.md, Sessions.
const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), n: z.number().int() }),
  sessionKey: 'orderId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [OrderPlaced] }),
  defineEndpoint('Erp', { consumes: [OrderPlaced] }),
]);

let emulator: RunningEmulator | undefined;
let host: EndpointHost | undefined;
const transports: ServiceBusTransport[] = [];

afterEach(async () => {
  await host?.stop();
  for (const transport of transports.splice(0)) await transport.close();
  await emulator?.stop();
});

it('a host with the default session concurrency handles the messages of several sessions in order', {
  timeout: 60_000,
}, async () => {
  emulator = await startEmulator({ port: 0 });
  const transport = () => {
    const created = new ServiceBusTransport({
      connectionString: emulator!.connectionString,
      managementCa: emulator!.caPem!,
    });
    transports.push(created);
    return created;
  };
  const publishing = transport();
  await publishing.applyTopology(topologyFromPlatform(platform));
  const crm = createPublisher({ transport: publishing, endpoint: platform.getEndpoint('Crm')! });
  const orders = ['a', 'b', 'c'];
  for (let n = 1; n <= 3; n++) for (const orderId of orders) await crm.publish(OrderPlaced, { orderId, n });

  const handled = new Map<string, number[]>();
  host = createEndpointHost({
    platform,
    endpoint: 'Erp',
    transport: transport(),
    subscriber: createSubscriber().on(OrderPlaced, (event) => {
      handled.set(event.orderId, [...(handled.get(event.orderId) ?? []), event.n]);
    }),
  });
  await host.start();

  await expect
    .poll(() => orders.map((orderId) => handled.get(orderId)), { timeout: 10_000, interval: 100 })
    .toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
});
