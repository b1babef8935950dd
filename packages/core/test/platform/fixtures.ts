import { z } from 'zod';
import { defineCommand, defineEndpoint, defineEvent } from '../../src/index.js';

export const CustomerCreated = defineEvent('CustomerCreated', {
  schema: z.object({ customerId: z.string().min(1), name: z.string(), email: z.email().optional() }),
  sessionKey: 'customerId',
  description: 'A customer was created in the CRM.',
});

export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string(), customerId: z.string(), total: z.number().nonnegative() }),
  sessionKey: (order) => order.customerId,
});

export const PlaceCreditHold = defineCommand('PlaceCreditHold', {
  schema: z.object({ customerId: z.string(), reason: z.string() }),
  sessionKey: 'customerId',
});

export const Crm = defineEndpoint('Crm', {
  produces: [CustomerCreated, PlaceCreditHold],
  consumes: [OrderPlaced],
});
export const Erp = defineEndpoint('Erp', {
  produces: [OrderPlaced],
  consumes: [CustomerCreated, PlaceCreditHold],
});
