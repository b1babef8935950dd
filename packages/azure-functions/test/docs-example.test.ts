// The worker's module must exist before `@azure/functions` registers its first function.

import { app } from '@azure/functions';
import { topologyFromPlatform } from '@nimbus/core';
import { createPublisher } from '@nimbus/sdk';
import { startEmulator } from '@nimbus/servicebus-emulator';
import { expect, it } from 'vitest';
import { invoiced, OrderPlaced, platform, registerBilling } from './example/function-app.js';
import { FunctionsDriver } from './support/functions-driver.js';
import { startSettlementServer } from './support/functions-host.js';
import { registrations } from './support/functions-worker.js';

it('docs/azure-functions.md example: the Billing trigger registers and handles an order, a failing one blocks its session', async () => {
  const emulator = await startEmulator({ port: 0 });
  await startSettlementServer();
  const { transport } = registerBilling(emulator.connectionString, emulator.caPem ?? undefined);
  try {
    await transport.applyTopology(topologyFromPlatform(platform));
    const registered = registrations.get('nimbus-Billing');
    expect(registered?.metadata.bindings).toBeDefined();
    const sales = createPublisher({ transport, endpoint: 'Sales', platform });
    for (const [orderId, amount] of [
      ['o-1', 10],
      ['o-2', -1],
      ['o-3', 5],
    ] as const) {
      await sales.publish(OrderPlaced, { orderId, customerId: 'c-1', amount });
    }
    // The registered function's own handler runs here: drive its input as the host would.
    const driver = new FunctionsDriver(app, emulator.connectionString, transport, 200);
    let handled = 0;
    for (let round = 0; round < 20 && handled < 3; round++) {
      handled += await driver.deliver('nimbus-Billing', 'Billing', transport);
    }
    await driver.close();
    expect(invoiced).toEqual(['o-1']);
    // o-2 failed and blocked the customer's session; o-3 is parked behind it.
    const parked = await transport.counts('Billing');
    expect(parked.parked).toBe(1);
  } finally {
    await transport.close();
    await emulator.stop();
  }
});
