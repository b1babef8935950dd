import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transport } from '@nimbus/core';
import { createEndpointHost, createSubscriber, type EndpointHost } from '@nimbus/sdk';
import { createSqlTransport } from '@nimbus/transport-sql';
import { OrderPlaced, platform, Warehouse } from './platform.js';

/** Thrown when an order asks for more than is on the shelf: the order's session blocks for an operator. */
export class OutOfStockError extends Error {
  override readonly name = 'OutOfStockError';
}

/** Stock per SKU, and the orders already reserved (so a redelivered order is reserved once). */
export class Shelf {
  readonly reserved = new Set<string>();
  constructor(readonly stock: Map<string, number>) {}

  reserve(orderId: string, sku: string, quantity: number): void {
    if (this.reserved.has(orderId)) return;
    const available = this.stock.get(sku) ?? 0;
    if (available < quantity)
      throw new OutOfStockError(`Only ${available} of ${sku} left, order needs ${quantity}.`);
    this.stock.set(sku, available - quantity);
    this.reserved.add(orderId);
  }
}

/** Starts the Warehouse endpoint on a transport: one handler per event type it consumes. */
export async function startWarehouse(transport: Transport, shelf: Shelf): Promise<EndpointHost> {
  const subscriber = createSubscriber().on(OrderPlaced, (order, context) => {
    shelf.reserve(order.orderId, order.sku, order.quantity);
    console.log(
      `Warehouse reserved ${order.quantity} x ${order.sku} for ${order.orderId} (event ${context.eventId})`,
    );
  });
  const host = createEndpointHost({ platform, endpoint: Warehouse, transport, subscriber });
  await host.start();
  return host;
}

/** `node warehouse-adapter.js`: joins the bus `nimbus dev` runs, through the SQLite file in the data dir. */
async function main(): Promise<void> {
  const dataDir = process.env.NIMBUS_DATA_DIR ?? '.nimbus';
  const transport = await createSqlTransport({ dialect: 'sqlite', path: resolve(dataDir, 'transport.db') });
  const host = await startWarehouse(transport, new Shelf(new Map([['SKU-1', 10]])));
  console.log('Warehouse adapter running; Ctrl+C to stop.');
  const stop = async () => {
    await host.stop();
    await transport.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
