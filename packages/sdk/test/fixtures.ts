import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { z } from 'zod';

export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string().min(1), customerId: z.string(), amount: z.number().nonnegative() }),
  sessionKey: 'customerId',
});
export const InvoiceCreated = defineEvent('InvoiceCreated', {
  schema: z.object({ invoiceId: z.string(), orderId: z.string() }),
});
export const Sales = defineEndpoint('Sales', { produces: [OrderPlaced] });
export const Billing = defineEndpoint('Billing', { produces: [InvoiceCreated], consumes: [OrderPlaced] });
export const platform = definePlatform([Sales, Billing]);

export const order = (n: number, customerId = 'c-1') => ({ orderId: `o-${n}`, customerId, amount: n });
