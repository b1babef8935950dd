// docs/azure-functions.md, worked example: the entry file of a Function App (package.json "main") that hosts
// the Billing endpoint. `npm run typecheck:tests` compiles it; docs-example.test.ts runs it through the host driver.
import { createRequire } from 'node:module';
import { app } from '@azure/functions';
import { registerEndpointFunctions } from '@nimbus/azure-functions';
import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import { z } from 'zod';

// Registers the Service Bus SDK binding with @azure/functions. Loaded with require: its published types point
// into TypeScript sources that do not compile under `verbatimModuleSyntax` (plain `import '…'` works in JS).
createRequire(import.meta.url)('@azure/functions-extensions-servicebus');

export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), customerId: z.string(), amount: z.number() }),
  sessionKey: 'customerId',
});
export const Sales = defineEndpoint('Sales', { produces: [OrderPlaced] });
export const Billing = defineEndpoint('Billing', { consumes: [OrderPlaced] });
export const platform = definePlatform([Sales, Billing]);

export const invoiced: string[] = [];

/** Registers the Billing trigger; in a Function App this runs once when the worker loads the entry file. */
export function registerBilling(connectionString: string, managementCa?: string) {
  const transport = new ServiceBusTransport({ connectionString, managementCa });
  const subscriber = createSubscriber().on(OrderPlaced, async (order) => {
    if (order.amount < 0) throw new Error(`order ${order.orderId} has a negative amount`); // blocks the session
    invoiced.push(order.orderId);
  });
  const host = registerEndpointFunctions(app, {
    platform,
    endpoint: 'Billing',
    subscriber,
    transport,
    connection: 'NimbusServiceBus', // app setting with the connection string (local.settings.json "Values")
  });
  return { host, transport };
}

// In the Function App itself:
// if (process.env.NimbusServiceBus) registerBilling(process.env.NimbusServiceBus);
