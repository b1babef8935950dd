// The platform the compose file runs: replace it with yours (a module that default-exports or exports
// `platform` from definePlatform). It resolves @nimbus/core and zod from the image's /app/node_modules.
import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { z } from 'zod';

export const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string().min(1) }),
  sessionKey: 'orderId',
});
export const Shop = defineEndpoint('Shop', { produces: [OrderPlaced] });
export const Warehouse = defineEndpoint('Warehouse', { consumes: [OrderPlaced] });
export const platform = definePlatform([Shop, Warehouse]);
