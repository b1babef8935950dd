/** The platform the engine end-to-end suite runs: Sales produces orders, Billing and Shipping consume them. */
import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { z } from 'zod';

export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string().min(1), customerId: z.string(), amount: z.number().nonnegative() }),
  sessionKey: 'customerId',
});
export const OrderCancelled = defineEvent('OrderCancelled', {
  schema: z.object({ orderId: z.string(), customerId: z.string() }),
  sessionKey: 'customerId',
});
export const InvoiceCreated = defineEvent('InvoiceCreated', {
  schema: z.object({ invoiceId: z.string(), orderId: z.string() }),
});
export const NotHandled = defineEvent('NotHandled', { schema: z.object({ x: z.number() }) });

export const Sales = defineEndpoint('Sales', {
  produces: [OrderPlaced, OrderCancelled, NotHandled],
  consumes: [InvoiceCreated],
});
export const Billing = defineEndpoint('Billing', {
  produces: [InvoiceCreated],
  consumes: [OrderPlaced, OrderCancelled, NotHandled],
});
export const Shipping = defineEndpoint('Shipping', { consumes: [OrderPlaced] });

export const platform = definePlatform([Sales, Billing, Shipping]);

export function order(n: number, customerId = 'c-1') {
  return { orderId: `o-${n}`, customerId, amount: n };
}
