import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { z } from 'zod';

/** A shop sends orders; the warehouse reserves stock for them. Orders of one id stay in order. */
export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({
    orderId: z.string().min(1),
    sku: z.string().min(1),
    quantity: z.number().int().positive(),
  }),
  sessionKey: 'orderId',
});

export const Shop = defineEndpoint('Shop', { produces: [OrderPlaced] });
export const Warehouse = defineEndpoint('Warehouse', { consumes: [OrderPlaced] });

export const platform = definePlatform([Shop, Warehouse]);
