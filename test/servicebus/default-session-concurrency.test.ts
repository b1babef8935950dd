import { defineEndpoint, defineEvent, definePlatform, topologyFromPlatform } from '@nimbus/core';
import { createEndpointHost, createPublisher, createSubscriber, type EndpointHost } from '@nimbus/sdk';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { z } from 'zod';

// An EndpointHost with the default maxConcurrentSessions (32 accept loops on one transport) once took no session
// at all: each next-session ask gave its poll lease up to hand the session to the main client, and the broker
// passed the session to another waiting ask of the same transport, round and round. See
// docs/transport-azure-service-bus.md, Sessions.
const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), n: z.number().int() }),
  sessionKey: 'orderId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [OrderPlaced] }),
  defineEndpoint('Erp', { consumes: [OrderPlaced] }),
]);
const orders = ['a', 'b', 'c'];

let emulator: RunningEmulator;
const hosts: EndpointHost[] = [];
const transports: ServiceBusTransport[] = [];
const handled = new Map<string, number[]>();

function transport(): ServiceBusTransport {
  const created = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
  });
  transports.push(created);
  return created;
}

/** A host for Erp with the default processor options, on its own transport (its own AMQP connections). */
async function startHost(): Promise<void> {
  const host = createEndpointHost({
    platform,
    endpoint: 'Erp',
    transport: transport(),
    subscriber: createSubscriber().on(OrderPlaced, (event) => {
      handled.set(event.orderId, [...(handled.get(event.orderId) ?? []), event.n]);
    }),
  });
  hosts.push(host);
  await host.start();
}

async function publishThreePerOrder(): Promise<void> {
  const publishing = transport();
  await publishing.applyTopology(topologyFromPlatform(platform));
  const crm = createPublisher({ transport: publishing, endpoint: platform.getEndpoint('Crm')! });
  for (let n = 1; n <= 3; n++) for (const orderId of orders) await crm.publish(OrderPlaced, { orderId, n });
}

async function expectAllHandledInOrder(): Promise<void> {
  await expect
    .poll(() => orders.map((orderId) => handled.get(orderId)), { timeout: 10_000, interval: 100 })
    .toEqual(orders.map(() => [1, 2, 3]));
}

beforeEach(async () => {
  handled.clear();
  emulator = await startEmulator({ port: 0 });
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  for (const created of transports.splice(0)) await created.close();
  await emulator.stop();
});

it('a host with the default session concurrency handles waiting messages of several sessions in order', {
  timeout: 60_000,
}, async () => {
  await publishThreePerOrder();
  await startHost();
  await expectAllHandledInOrder();
});

it('two idle hosts with the default session concurrency handle messages published later', {
  timeout: 60_000,
}, async () => {
  const topology = transport();
  await topology.applyTopology(topologyFromPlatform(platform));
  await startHost();
  await startHost();
  // Every accept loop of both hosts is now waiting for a session.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await publishThreePerOrder();
  await expectAllHandledInOrder();
});
