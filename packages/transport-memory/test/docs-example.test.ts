// The example quoted in docs/transports.md; keep the two in step.

// #region example
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  Header,
  SessionProcessor,
  topologyFromPlatform,
  uuidv7,
} from '@nimbus/core';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { expect, it } from 'vitest';
import { z } from 'zod';

const CustomerChanged = defineEvent('CustomerChanged', { schema: z.object({ customerId: z.string() }) });
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [CustomerChanged] }),
  defineEndpoint('Erp', { consumes: [CustomerChanged] }),
]);

export async function runExample(): Promise<string[]> {
  const transport = createMemoryTransport({ lockDurationMs: 5_000 });
  await transport.applyTopology(topologyFromPlatform(platform));

  // Crm publishes on its own topic; routing (design D3) gives Erp its copy and the Resolver an audit copy.
  await transport.publish([
    {
      source: 'Crm',
      messages: ['c-1', 'c-1', 'c-2'].map((customerId) => ({
        messageId: uuidv7(),
        sessionId: customerId,
        correlationId: 'order-42',
        headers: { [Header.To]: 'CustomerChanged', [Header.EventTypeId]: 'CustomerChanged' },
        body: JSON.stringify({ customerId }),
      })),
    },
  ]);

  const handled: string[] = [];
  const processor = new SessionProcessor({
    transport,
    input: 'Erp',
    maxConcurrentSessions: 2,
    handler: {
      async handleMessage(session, message) {
        handled.push(`${session.sessionId}:${message.headers[Header.From]}`);
        await session.complete(message); // the handler always settles what it is given
      },
    },
  });
  await processor.start();
  while (processor.stats.messagesHandled < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  await processor.stop(); // graceful: finishes in-flight messages and releases sessions
  await transport.close();
  return handled.sort();
}
// #endregion example

it('runs the transports.md example', async () => {
  expect(await runExample()).toEqual(['c-1:Crm', 'c-1:Crm', 'c-2:Crm']);
});
