import { defineEndpoint, defineEvent, definePlatform } from '@nimbus/core';
import { z } from 'zod';

export const CustomerChanged = defineEvent('CustomerChanged', {
  schema: z.object({ customerId: z.string(), name: z.string() }),
  sessionKey: 'customerId',
});

export const samplePlatform = definePlatform([
  defineEndpoint('Crm', { produces: [CustomerChanged] }),
  defineEndpoint('Erp', { consumes: [CustomerChanged] }),
]);
