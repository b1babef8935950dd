import { Header, uuidv7 } from '@nimbus/core';
import { startEmulator } from '@nimbus/servicebus-emulator';
import { expect, it } from 'vitest';
import { ServiceBusTransport } from '../src/index.js';

it('docs/transport-azure-service-bus.md example: provision, publish, receive in a session, complete', async () => {
  /* jscpd:ignore-start */ // the docs page's example, kept whole as a reader copies it
  // --- example start ---
  const emulator = await startEmulator({ port: 0 }); // or a real namespace: see "Pointing at Azure"
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem ?? undefined, // the emulator's management API has its own CA
  });
  const changes = await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
  });
  await transport.publish([
    {
      source: 'Crm',
      messages: [
        {
          messageId: uuidv7(),
          sessionId: 'customer-42',
          correlationId: 'customer-42',
          headers: { [Header.To]: 'CustomerChanged', [Header.EventTypeId]: 'CustomerChanged' },
          body: JSON.stringify({ name: 'Ada' }),
        },
      ],
    },
  ]);
  const session = await transport.acceptSession('Erp', { waitMs: 5_000 });
  const [received] = (await session?.receive({ max: 10, waitMs: 1_000 })) ?? [];
  await session?.complete(received!);
  await session?.release();
  await transport.close();
  await emulator.stop();
  // --- example end ---
  /* jscpd:ignore-end */
  expect(changes.addedEndpoints).toEqual(['Crm', 'Erp']);
  expect(received).toMatchObject({ sessionId: 'customer-42', deliveryCount: 1, input: 'Erp' });
  expect(received!.headers).toMatchObject({ To: 'Erp', From: 'Crm' });
});
