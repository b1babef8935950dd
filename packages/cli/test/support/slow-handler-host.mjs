// An endpoint host as its own OS process, for the graceful-shutdown test. The Warehouse handler of the
// first-adapter platform waits NIMBUS_TEST_HANDLER_MS for each order unless its signal is aborted first.
// Publishes one order when NIMBUS_TEST_PUBLISH_ORDER is set. Stops on SIGTERM with NIMBUS_TEST_DRAIN_MS.
import { topologyFromPlatform } from '@nimbus/core';
import { OrderPlaced, platform, Shop, Warehouse } from '@nimbus/example-crm-erp/first-adapter/platform';
import { createEndpointHost, createPublisher, createSubscriber } from '@nimbus/sdk';
import { createSqlTransport } from '@nimbus/transport-sql';

const transport = await createSqlTransport({
  dialect: 'sqlite',
  path: process.env.NIMBUS_TEST_TRANSPORT_PATH,
});
await transport.applyTopology(topologyFromPlatform(platform));
const handlerMs = Number(process.env.NIMBUS_TEST_HANDLER_MS ?? 0);
const subscriber = createSubscriber().on(OrderPlaced, async (order, context) => {
  console.log(`handler started ${order.orderId} delivery ${context.raw.deliveryCount}`);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, handlerMs);
    context.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      const reason = context.signal.reason;
      console.log(`signal aborted ${order.orderId}: ${reason?.reason} (${reason?.message})`);
      reject(reason);
    });
  });
  console.log(`handled ${order.orderId}`);
});
const host = createEndpointHost({
  platform,
  endpoint: Warehouse,
  transport,
  subscriber,
  processor: {
    acceptWaitMs: 200,
    sessionIdleTimeoutMs: 200,
    handlerTimeoutMs: Number(process.env.NIMBUS_TEST_HANDLER_TIMEOUT_MS ?? 0),
  },
});
await host.start();
if (process.env.NIMBUS_TEST_PUBLISH_ORDER) {
  await createPublisher({ transport, endpoint: Shop }).publish(OrderPlaced, {
    orderId: process.env.NIMBUS_TEST_PUBLISH_ORDER,
    sku: 'SKU-1',
    quantity: 1,
  });
}
console.log(`host ${host.state}`);
process.once('SIGTERM', async () => {
  const started = Date.now();
  await host.stop({ timeoutMs: Number(process.env.NIMBUS_TEST_DRAIN_MS ?? 30_000) });
  await transport.close();
  console.log(`host ${host.state} after ${Date.now() - started} ms`);
  process.exit(0);
});
