// Reference 7.7-62..65 (adapted): request/response between two endpoints run by the real engine.
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  encodeEnvelope,
  MessageType,
  replyInputOf,
  silentLogger,
} from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import { createTestBus } from '@nimbus/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInbox,
  createRequester,
  createResponder,
  MemoryInboxStore,
  RequestReplyError,
  respondingHandler,
} from '../src/index.js';

const GetPrice = defineEvent('GetPrice', {
  schema: z.object({ sku: z.string() }),
  sessionKey: 'sku',
});
const Price = z.object({ sku: z.string(), price: z.number() });
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [GetPrice] }),
  defineEndpoint('Erp', { consumes: [GetPrice] }),
]);

class PriceListUnavailableError extends Error {
  override name = 'PriceListUnavailableError';
}

function setup(options: { failing?: boolean; inbox?: boolean } = {}) {
  const bus = createTestBus({ platform });
  const calls: string[] = [];
  // #region responding-endpoint
  const responder = createResponder({ transport: bus.transport, logger: silentLogger });
  const subscriber = createSubscriber().on(
    GetPrice,
    respondingHandler(responder, (request: { sku: string }) => {
      calls.push(request.sku);
      if (options.failing) throw new PriceListUnavailableError('price list is being rebuilt');
      return { sku: request.sku, price: 9.5 };
    }),
  );
  // #endregion responding-endpoint
  const inbox = options.inbox
    ? createInbox({
        store: new MemoryInboxStore({ clock: bus.clock }),
        clock: bus.clock,
        logger: silentLogger,
      })
    : undefined;
  bus.endpoint('Erp', { subscriber, ...(inbox ? { inbox } : {}) });
  const requester = createRequester({ transport: bus.transport, endpoint: 'Crm', clock: bus.clock });
  return { bus, calls, requester };
}

describe('request/response between endpoints (reference 7.7-62..65, adapted)', () => {
  it('7.7-62 round trip: the handler runs once, the reply reaches the requester, the Resolver gets the normal resolution', async () => {
    const { bus, calls, requester } = setup();
    const asking = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price, correlationId: 'quote-7' });
    await bus.deliverAll();
    await expect(asking).resolves.toEqual({ sku: 'A-1', price: 9.5 });
    expect(calls).toEqual(['A-1']);
    const [request] = bus.requestsTo('Erp');
    expect(request).toMatchObject({ replyTo: 'Crm', correlationId: 'quote-7' });
    expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(1);
    expect(bus.responses().map((r) => r.messageType)).toEqual([MessageType.ResolutionResponse]);
  });

  it('7.7-63 a failing handler: error reply naming the error type and text, and the normal ErrorResponse path', async () => {
    const { bus, requester } = setup({ failing: true });
    const asking = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price });
    const failure = asking.catch((error: unknown) => error);
    await bus.deliverAll();
    const error = await failure;
    expect(error).toBeInstanceOf(RequestReplyError);
    expect(error).toMatchObject({
      errorType: 'PriceListUnavailableError',
      errorText: 'price list is being rebuilt',
    });
    const [errorResponse] = bus.responses({ type: MessageType.ErrorResponse });
    expect(errorResponse?.content.errorContent?.errorType).toBe('PriceListUnavailableError');
  });

  it('7.7-64 a plain publish (no ReplyTo): the handler runs and nothing is replied', async () => {
    const { bus, calls } = setup();
    await bus.publisher('Crm').publish(GetPrice, { sku: 'B-2' });
    await bus.deliverAll();
    expect(calls).toEqual(['B-2']);
    expect((await bus.transport.counts(replyInputOf('Crm'))).active).toBe(0);
    expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(1);
  });

  it('7.7-65 with the inbox, a redelivered request runs no second handler and sends no second reply', async () => {
    const { bus, calls, requester } = setup({ inbox: true });
    const asking = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price });
    await bus.deliverAll();
    await asking;
    const [request] = bus.requestsTo('Erp');
    // The same request published again (a second dispatch): same message id, same reply address.
    const again = encodeEnvelope({ ...request!, to: 'GetPrice', from: null, eventId: null });
    await bus.transport.publish([{ source: 'Crm', messages: [again] }]);
    await bus.deliverAll();
    expect(calls).toEqual(['A-1']);
    expect((await bus.transport.counts(replyInputOf('Crm'))).active).toBe(0);
    const skip = bus.responses({ type: MessageType.SkipResponse });
    expect(skip.map((s) => s.content.errorContent?.errorText)).toEqual(['DuplicateDetected']);
  });
});
