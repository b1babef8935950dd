// The examples quoted in docs/reliability.md. Keep them in sync with the page.
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  EndpointCircuitBreaker,
  ManualClock,
  MessageType,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import { createEndpointHost, createSubscriber } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInbox,
  createOutboxTransport,
  createRequester,
  createResponder,
  createSqliteOutboxStore,
  inboxGuard,
  MemoryInboxStore,
  OutboxDispatcher,
  respondingHandler,
  withAmbientTransaction,
} from '../src/index.js';

it('docs: publish after commit with the SQLite outbox', async () => {
  const transport = createMemoryTransport();
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'OrderPlaced', target: 'Erp' }],
  });
  // --- example: outbox ---
  const db = new Database(':memory:');
  db.exec('create table orders (id text primary key, total integer)');
  const outbox = createSqliteOutboxStore(db);
  await outbox.migrate('AutoApply'); // journaled; baselines a table an older version created

  // Publishers get the decorated transport: publish() writes outbox rows instead of sending.
  const publishing = createOutboxTransport(transport, outbox);

  db.exec('begin');
  await withAmbientTransaction(db, async () => {
    db.prepare('insert into orders (id, total) values (?, ?)').run('o-1', 42);
    await publishing.publish([
      {
        source: 'Crm',
        messages: [
          {
            messageId: 'order-o-1',
            sessionId: 'o-1',
            correlationId: 'order-o-1',
            headers: { To: 'OrderPlaced', EventTypeId: 'OrderPlaced', MessageType: 'EventRequest' },
            body: JSON.stringify({ orderId: 'o-1', total: 42 }),
          },
        ],
      },
    ]);
  });
  db.exec('commit');

  // The dispatcher needs the REAL transport; it sends committed rows and marks them.
  const dispatcher = new OutboxDispatcher({ outbox, transport, pollIntervalMs: 1_000 });
  const sent = await dispatcher.dispatchPending(); // or dispatcher.start() / await dispatcher.stop()
  // --- end example ---
  expect(sent).toBe(1);
  expect((await transport.counts('Erp')).active).toBe(1);
});

it('docs: inbox guard in a consumer', async () => {
  // --- example: inbox ---
  const inbox = createInbox({ store: new MemoryInboxStore(), retentionMs: 2 * 24 * 3_600_000 });
  const stopCleanup = inbox.startCleanup('Erp');

  async function onRequest(
    message: { messageId: string; messageType: MessageType },
    handle: () => Promise<void>,
  ) {
    const guard = await inboxGuard(inbox, 'Erp', message);
    if (guard.action === 'skip') return 'SkipResponse: DuplicateDetected';
    await handle();
    if (guard.guarded) await inbox.record('Erp', message.messageId);
    return 'ResolutionResponse';
  }
  // --- end example ---
  const message = { messageId: 'm-1', messageType: MessageType.EventRequest };
  let runs = 0;
  expect(await onRequest(message, async () => void runs++)).toBe('ResolutionResponse');
  expect(await onRequest(message, async () => void runs++)).toBe('SkipResponse: DuplicateDetected');
  expect(runs).toBe(1);
  await stopCleanup();
});

it('docs: request/response', async () => {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock });
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'GetPrice', target: 'Erp' }],
  });
  // --- example: request/response ---
  const GetPrice = defineEvent('GetPrice', { schema: z.object({ sku: z.string() }), sessionKey: 'sku' });
  const Price = z.object({ sku: z.string(), price: z.number() });

  const requester = createRequester({ transport, endpoint: 'Crm', clock });
  const responder = createResponder({ transport });

  const asking = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price, timeoutMs: 10_000 });

  // On the Erp side, inside the handler of the request:
  const session = await transport.acceptSession('Erp', { waitMs: 1_000 });
  const [request] = await session!.receive({ max: 1, waitMs: 1_000 });
  await responder.respond(request!, () => ({ sku: 'A-1', price: 9.5 }));
  await session!.complete(request!);

  const price = await asking; // typed by the Price schema
  // --- end example ---
  expect(price).toEqual({ sku: 'A-1', price: 9.5 });
  await session!.release();
});

it('docs: an endpoint host with the inbox, a circuit breaker and a responding handler', async () => {
  const GetPrice = defineEvent('GetPrice', { schema: z.object({ sku: z.string() }), sessionKey: 'sku' });
  const Price = z.object({ sku: z.string(), price: z.number() });
  const platform = definePlatform([
    defineEndpoint('Crm', { produces: [GetPrice] }),
    defineEndpoint('Erp', { consumes: [GetPrice] }),
  ]);
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const logger = silentLogger;
  const priceList = { lookup: async (sku: string) => ({ sku, price: 9.5 }) };
  // --- example: endpoint host ---
  const responder = createResponder({ transport, logger });
  const host = createEndpointHost({
    platform,
    endpoint: 'Erp',
    transport,
    subscriber: createSubscriber().on(
      GetPrice,
      // The result is the reply; a thrown error is replied and then takes the normal failure path.
      respondingHandler(responder, (request: { sku: string }) => priceList.lookup(request.sku)),
    ),
    // Redeliveries of handled messages get a SkipResponse (DuplicateDetected); the cleanup runs with the host.
    inbox: createInbox({ store: new MemoryInboxStore(), logger }),
    // While the price list is down, the endpoint takes no messages (they stay on its input).
    circuitBreaker: new EndpointCircuitBreaker('Erp', {
      minimumThroughput: 10,
      breakDurationMs: 30_000,
      logger,
    }),
    logger,
  });
  await host.start();

  // Any process can ask; replies come back on Crm-reply in a session of their own.
  const requester = createRequester({ transport, endpoint: 'Crm' });
  const price = await requester.request(GetPrice, { sku: 'A-1' }, { reply: Price, timeoutMs: 10_000 });
  // --- end example ---
  await host.stop();
  await transport.close();
  expect(price).toEqual({ sku: 'A-1', price: 9.5 });
});
