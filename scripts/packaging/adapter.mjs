// A small adapter written against the installed tarballs only: a shop publishes orders, a warehouse handles
// them on the SQLite transport, and the run fails unless every order is handled once, in order.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEndpoint, defineEvent, definePlatform, topologyFromPlatform } from '@nimbus/core';
import { createEndpointHost, createPublisher, createSubscriber } from '@nimbus/sdk';
import { createSqlTransport } from '@nimbus/transport-sql';
import { z } from 'zod';

const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), line: z.number().int() }),
  sessionKey: 'orderId',
});
const Shop = defineEndpoint('Shop', { produces: [OrderPlaced] });
const Warehouse = defineEndpoint('Warehouse', { consumes: [OrderPlaced] });
const platform = definePlatform([Shop, Warehouse]);

const dir = mkdtempSync(join(tmpdir(), 'nimbus-packaging-'));
const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dir, 'transport.db') });
await transport.applyTopology(topologyFromPlatform(platform));

const handled = [];
const subscriber = createSubscriber().on(OrderPlaced, (order) => {
  handled.push(`${order.orderId}:${order.line}`);
});
const host = createEndpointHost({ platform, endpoint: Warehouse, transport, subscriber });
await host.start();

const shop = createPublisher({ transport, endpoint: Shop });
const expected = [];
for (let line = 1; line <= 5; line++) {
  for (const orderId of ['A', 'B']) {
    await shop.publish(OrderPlaced, { orderId, line });
    expected.push(`${orderId}:${line}`);
  }
}

const deadline = Date.now() + 20_000;
while (handled.length < expected.length && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await host.stop();
await transport.close();

const perOrder = (list, id) => list.filter((entry) => entry.startsWith(`${id}:`));
for (const id of ['A', 'B']) {
  if (JSON.stringify(perOrder(handled, id)) !== JSON.stringify(perOrder(expected, id))) {
    console.error(`order ${id}: handled ${JSON.stringify(perOrder(handled, id))}`);
    process.exit(1);
  }
}
console.log(`packaging adapter: ${handled.length} orders handled in order on SQLite`);
