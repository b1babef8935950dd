// Reference 7.4 PublisherClientRequestTests and RequestJsonHandlerTests, adapted to the requester, the
// responder, respondingHandler and the replyToFailedRequests behaviour.
import {
  createEnvelope,
  decodeEnvelope,
  defineEndpoint,
  defineEvent,
  definePlatform,
  encodeEnvelope,
  Header,
  type Logger,
  ManualClock,
  type MessageEnvelope,
  MessageType,
  replyInputOf,
  silentLogger,
  type Transport,
  type TransportMessage,
} from '@nimbus/core';
import { createSubscriber, type HandlerContext, HandlerRegistrationError } from '@nimbus/sdk';
import { createTestBus } from '@nimbus/testing';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createRequester,
  createResponder,
  InvalidReplyError,
  ReplyStatus,
  RequestReplyConfigurationError,
  replyToFailedRequests,
  respondingHandler,
} from '../src/index.js';

const GetPrice = defineEvent('GetPrice', { schema: z.object({ sku: z.string() }), sessionKey: 'sku' });
const Price = z.object({ sku: z.string(), price: z.number() });

async function requesterSetup() {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock });
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'GetPrice', target: 'Erp' }],
  });
  const requester = createRequester({ transport, endpoint: 'Crm', clock });
  /** Takes the next request off Erp and answers it with a hand-written success reply body. */
  async function answerWith(body: string, extraHeaders: Record<string, string> = {}) {
    const session = await transport.acceptSession('Erp', { waitMs: 5_000 });
    const [request] = (await session?.receive({ max: 1, waitMs: 1_000 })) ?? [];
    if (!session || !request) throw new Error('no request arrived');
    const envelope = decodeEnvelope(request);
    await transport.publish([
      {
        // Replies are published as the requesting endpoint, as the responder does.
        source: envelope.replyTo ?? '',
        messages: [
          {
            messageId: `reply-${envelope.messageId}`,
            sessionId: envelope.replyToSessionId ?? '',
            correlationId: envelope.correlationId,
            headers: {
              [Header.To]: replyInputOf(envelope.replyTo ?? ''),
              [Header.ReplyStatus]: ReplyStatus.Success,
              ...extraHeaders,
            },
            body,
          },
        ],
      },
    ]);
    await session.complete(request);
    await session.release();
    return envelope;
  }
  return { clock, transport, requester, answerWith };
}

const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('7.4 PublisherClientRequest (requester side)', () => {
  it('7.4 PublisherClientRequest: a request stamps ReplyTo = the requesting endpoint and takes its reply from {endpoint}-reply', async () => {
    const { requester, answerWith, transport } = await requesterSetup();
    const asking = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price });
    const request = await answerWith('{"sku":"A-1","price":9.5}');
    expect(request).toMatchObject({
      messageType: MessageType.EventRequest,
      replyTo: 'Crm',
      eventTypeId: 'GetPrice',
    });
    expect(request.replyToSessionId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(asking).resolves.toEqual({ sku: 'A-1', price: 9.5 });
    expect(replyInputOf('Crm')).toBe('Crm-reply');
    expect((await transport.counts('Crm-reply')).active).toBe(0); // the reply was taken and completed
  });

  it('7.4 PublisherClientRequest: a missing transport ("client") or endpoint fails with guidance', () => {
    const transport = createMemoryTransport();
    const noTransport = () =>
      createRequester({ endpoint: 'Crm' } as unknown as { transport: Transport; endpoint: string });
    expect(noTransport).toThrow(RequestReplyConfigurationError);
    expect(noTransport).toThrow('createRequester needs a transport');
    expect(() => createRequester({ transport, endpoint: '' })).toThrow(
      /replies are received on \{endpoint\}-reply/,
    );
  });

  it('7.4 PublisherClientRequest: a requesting endpoint without a reply input fails naming the input and the fix', async () => {
    const transport = createMemoryTransport();
    await transport.applyTopology({
      endpoints: ['Erp'],
      routes: [{ source: 'Erp', eventTypeId: 'GetPrice', target: 'Erp' }],
    });
    const requester = createRequester({ transport, endpoint: 'Erp-typo' });
    await expect(requester.request(GetPrice, { sku: 'A-1' }, { timeoutMs: 1_000 })).rejects.toThrow(
      /Erp-typo-reply does not exist; apply the topology for endpoint Erp-typo/,
    );
  });

  it('7.4 PublisherClientRequest: request handler registration (N/A in NimBus TS: no DI container; a responding handler is an ordinary subscriber.on registration)', async () => {
    const bus = createTestBus({
      platform: definePlatform([
        defineEndpoint('Crm', { produces: [GetPrice] }),
        defineEndpoint('Erp', { consumes: [GetPrice] }),
      ]),
    });
    const responder = createResponder({ transport: bus.transport, logger: silentLogger });
    const subscriber = createSubscriber().on(
      GetPrice,
      respondingHandler(responder, (r: { sku: string }) => ({ sku: r.sku, price: 1 })),
    );
    expect(subscriber.eventTypeIds).toEqual(['GetPrice']);
    bus.endpoint('Erp', { subscriber });
    const asking = createRequester({ transport: bus.transport, endpoint: 'Crm', clock: bus.clock }).request(
      GetPrice,
      { sku: 'R-1' },
      { reply: Price },
    );
    await bus.deliverAll();
    await expect(asking).resolves.toEqual({ sku: 'R-1', price: 1 });
    expect(() => respondingHandler(undefined as never, () => 1)).toThrow(
      /needs a responder: createResponder/,
    );
  });

  it('7.4 PublisherClientRequest: a second request handler for the same type is rejected', () => {
    const responder = createResponder({ transport: createMemoryTransport(), logger: silentLogger });
    const subscriber = createSubscriber().on(
      GetPrice,
      respondingHandler(responder, () => 1),
      'first',
    );
    expect(() =>
      subscriber.on(
        GetPrice,
        respondingHandler(responder, () => 2),
        'second',
      ),
    ).toThrow(HandlerRegistrationError);
    expect(() =>
      subscriber.on(
        GetPrice,
        respondingHandler(responder, () => 2),
        'second',
      ),
    ).toThrow("Two handlers for event type 'GetPrice': typed handler 'first' and typed handler 'second'");
  });

  it('7.4 PublisherClientRequest: a request handler conflicts with a typed (or dynamic) handler of the same type', () => {
    const responder = createResponder({ transport: createMemoryTransport(), logger: silentLogger });
    const typedFirst = createSubscriber().on(GetPrice, () => undefined, 'audit');
    expect(() =>
      typedFirst.on(
        GetPrice,
        respondingHandler(responder, () => 1),
        'quote',
      ),
    ).toThrow(/typed handler 'audit' and typed handler 'quote'/);
    const requestFirst = createSubscriber().on(
      GetPrice,
      respondingHandler(responder, () => 1),
      'quote',
    );
    expect(() => requestFirst.onDynamic('GetPrice', () => undefined, 'raw')).toThrow(
      /typed handler 'quote' and dynamic handler 'raw'/,
    );
  });

  it('7.4 PublisherClientRequest: a well-formed reply is deserialized (with and without a reply contract)', async () => {
    const { requester, answerWith } = await requesterSetup();
    const untyped = requester.request(GetPrice, { sku: 'A-1' });
    await answerWith('{"sku":"A-1","price":9.5,"tags":["x"],"at":null}');
    await expect(untyped).resolves.toEqual({ sku: 'A-1', price: 9.5, tags: ['x'], at: null });
    const empty = requester.request(GetPrice, { sku: 'A-1' });
    await answerWith('');
    await expect(empty).resolves.toBeNull();
  });

  it('7.4 PublisherClientRequest: a reply deeper than 32 levels is rejected unread; 32 levels are accepted', async () => {
    const { requester, answerWith, transport } = await requesterSetup();
    const deep = requester.request(GetPrice, { sku: 'A-1' }).catch((e: unknown) => e);
    const request = await answerWith(nested(33));
    const error = await deep;
    expect(error).toBeInstanceOf(InvalidReplyError);
    expect(error).toMatchObject({ requestMessageId: request.messageId });
    expect((error as Error).message).toBe(
      `The reply to request ${request.messageId} is nested deeper than 32 levels; it is refused unread`,
    );
    expect((await transport.counts('Crm-reply')).active).toBe(0); // taken and completed, not redelivered
    const limit = requester.request(GetPrice, { sku: 'A-1' });
    await answerWith(nested(32));
    await expect(limit).resolves.toEqual(JSON.parse(nested(32)));
  });

  it('7.4 PublisherClientRequest: a reply that is not JSON is rejected with InvalidReplyError naming the request', async () => {
    const { requester, answerWith } = await requesterSetup();
    const broken = requester.request(GetPrice, { sku: 'A-1' }).catch((e: unknown) => e);
    const request = await answerWith('{"sku": "A-1",');
    const error = await broken;
    expect(error).toBeInstanceOf(InvalidReplyError);
    expect((error as Error).message).toMatch(
      new RegExp(`reply to request ${request.messageId} is not valid JSON`),
    );
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('7.4 PublisherClientRequest: type metadata in a reply is ignored (plain data, no class, no prototype change)', async () => {
    const { requester, answerWith } = await requesterSetup();
    const hostile =
      '{"$type":"System.Diagnostics.Process, System","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"sku":"A-1","price":2}';
    const untyped = requester.request(GetPrice, { sku: 'A-1' });
    await answerWith(hostile, { [Header.MessageType]: 'System.Diagnostics.Process' });
    const reply = (await untyped) as Record<string, unknown>;
    expect(Object.getPrototypeOf(reply)).toBe(Object.prototype);
    expect(reply.$type).toBe('System.Diagnostics.Process, System');
    expect((reply as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const typed = requester.request(GetPrice, { sku: 'A-1' }, { reply: Price });
    await answerWith(hostile);
    await expect(typed).resolves.toEqual({ sku: 'A-1', price: 2 });
  });
});

async function responderSetup(transportOverride?: (transport: Transport) => Transport) {
  const transport = createMemoryTransport();
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'GetPrice', target: 'Erp' }],
  });
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: Logger = { ...silentLogger, warn: (fields, message) => warnings.push({ fields, message }) };
  const responder = createResponder({ transport: transportOverride?.(transport) ?? transport, logger });
  const request = (replyTo: string | null = 'Crm'): MessageEnvelope =>
    createEnvelope({
      messageId: 'req-1',
      to: 'Erp',
      sessionId: 'A-1',
      correlationId: 'corr-1',
      messageType: MessageType.EventRequest,
      replyTo,
      replyToSessionId: replyTo ? 'reply-session-1' : null,
      content: { eventContent: { eventTypeId: 'GetPrice', eventJson: '{"sku":"A-1"}' }, errorContent: null },
    });
  const contextOf = (message: MessageEnvelope) => ({ raw: { message } }) as unknown as HandlerContext;
  /** Every reply waiting on Crm-reply in the request's reply session. */
  async function repliesSent(): Promise<TransportMessage[]> {
    const session = await transport.acceptSession('Crm-reply', { sessionId: 'reply-session-1', waitMs: 0 });
    if (!session) return [];
    const replies = await session.receive({ max: 10, waitMs: 0 });
    await session.release();
    return replies;
  }
  return { transport, responder, request, contextOf, repliesSent, warnings };
}

describe('7.4 RequestJsonHandler (responding side)', () => {
  it('7.4 RequestJsonHandler: success sends a success reply carrying the payload, the reply session and the correlation', async () => {
    const { responder, request, contextOf, repliesSent } = await responderSetup();
    const handler = respondingHandler(responder, (r: { sku: string }) => ({ sku: r.sku, price: 9.5 }));
    await handler({ sku: 'A-1' }, contextOf(request()));
    const [reply, ...more] = await repliesSent();
    expect(more).toEqual([]);
    expect(reply).toMatchObject({
      sessionId: 'reply-session-1',
      correlationId: 'corr-1',
      body: '{"sku":"A-1","price":9.5}',
    });
    expect(reply?.headers[Header.ReplyStatus]).toBe(ReplyStatus.Success);
    expect(reply?.headers[Header.To]).toBe('Crm-reply');
  });

  it('7.4 RequestJsonHandler: a throwing handler sends an error reply, then the error is rethrown', async () => {
    const { responder, request, contextOf, repliesSent } = await responderSetup();
    class PriceListUnavailableError extends Error {
      override name = 'PriceListUnavailableError';
    }
    const thrown = new PriceListUnavailableError('price list is being rebuilt');
    const handler = respondingHandler(responder, () => {
      throw thrown;
    });
    await expect(handler({ sku: 'A-1' }, contextOf(request()))).rejects.toBe(thrown);
    const [reply, ...more] = await repliesSent();
    expect(more).toEqual([]);
    expect(reply?.headers).toMatchObject({
      [Header.ReplyStatus]: ReplyStatus.Error,
      [Header.ErrorType]: 'PriceListUnavailableError',
      [Header.ErrorText]: 'price list is being rebuilt',
    });
    expect(reply).toMatchObject({ sessionId: 'reply-session-1', correlationId: 'corr-1', body: '' });
  });

  it('7.4 RequestJsonHandler: without ReplyTo the handler runs and nothing is replied', async () => {
    const { responder, request, contextOf, transport } = await responderSetup();
    const seen: string[] = [];
    const handler = respondingHandler(responder, (r: { sku: string }) => {
      seen.push(r.sku);
      return { sku: r.sku, price: 1 };
    });
    await handler({ sku: 'A-1' }, contextOf(request(null)));
    expect(seen).toEqual(['A-1']);
    expect((await transport.counts('Crm-reply')).active).toBe(0);
  });

  it('7.4 RequestJsonHandler: malformed request JSON gets an error reply and is a permanent failure (dead-lettered, handler never runs)', async () => {
    const bus = createTestBus({
      platform: definePlatform([
        defineEndpoint('Crm', { produces: [GetPrice] }),
        defineEndpoint('Erp', { consumes: [GetPrice] }),
      ]),
    });
    const responder = createResponder({ transport: bus.transport, logger: silentLogger });
    const calls: string[] = [];
    // #region reply-to-failed-requests
    bus.endpoint('Erp', {
      subscriber: createSubscriber().on(
        GetPrice,
        respondingHandler(responder, (r: { sku: string }) => calls.push(r.sku)),
      ),
      // Requests refused before the handler (bad payload) get an error reply instead of a timeout.
      behaviours: [replyToFailedRequests(responder)],
    });
    // #endregion reply-to-failed-requests
    const malformed = createEnvelope({
      messageId: 'req-malformed',
      to: 'GetPrice',
      sessionId: 'A-1',
      correlationId: 'corr-malformed',
      messageType: MessageType.EventRequest,
      originatingFrom: 'Crm',
      replyTo: 'Crm',
      replyToSessionId: 'reply-session-1',
      content: { eventContent: { eventTypeId: 'GetPrice', eventJson: '{"sku": ' }, errorContent: null },
    });
    await bus.transport.publish([{ source: 'Crm', messages: [encodeEnvelope(malformed)] }]);
    await bus.deliverAll();
    expect(calls).toEqual([]);
    const [deadLettered] = await bus.deadLetters('Erp');
    expect(deadLettered?.messageId).toBe('req-malformed');
    const session = await bus.transport.acceptSession('Crm-reply', {
      sessionId: 'reply-session-1',
      waitMs: 0,
    });
    const replies = (await session?.receive({ max: 10, waitMs: 0 })) ?? [];
    expect(replies).toHaveLength(1);
    expect(replies[0]?.headers).toMatchObject({
      [Header.ReplyStatus]: ReplyStatus.Error,
      [Header.ErrorType]: 'PermanentFailureError',
    });
    expect(replies[0]?.headers[Header.ErrorText]).toMatch(/'GetPrice' payload is not valid JSON/);
  });

  it('7.4 RequestJsonHandler: with replyToFailedRequests installed, a handler failure is still replied exactly once', async () => {
    const bus = createTestBus({
      platform: definePlatform([
        defineEndpoint('Crm', { produces: [GetPrice] }),
        defineEndpoint('Erp', { consumes: [GetPrice] }),
      ]),
    });
    const responder = createResponder({ transport: bus.transport, logger: silentLogger });
    bus.endpoint('Erp', {
      subscriber: createSubscriber().on(
        GetPrice,
        respondingHandler(responder, () => {
          throw new Error('boom');
        }),
      ),
      behaviours: [replyToFailedRequests(responder)],
    });
    const requester = createRequester({ transport: bus.transport, endpoint: 'Crm', clock: bus.clock });
    const asking = requester.request(GetPrice, { sku: 'A-1' }).catch((e: unknown) => e);
    await bus.deliverAll();
    expect(await asking).toMatchObject({ errorType: 'Error', errorText: 'boom' });
    expect((await bus.transport.counts('Crm-reply')).active).toBe(0); // no second error reply left behind
  });

  it('7.4 RequestJsonHandler: a failing error-reply send does not mask the original exception (it is logged)', async () => {
    const { responder, request, contextOf, warnings } = await responderSetup((transport) =>
      Object.assign(Object.create(transport) as Transport, {
        publish: async () => {
          throw new Error('reply input unreachable');
        },
      }),
    );
    const original = new RangeError('sku A-1 unknown');
    const handler = respondingHandler(responder, () => {
      throw original;
    });
    await expect(handler({ sku: 'A-1' }, contextOf(request()))).rejects.toBe(original);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toBe('Could not send the error reply; the requester will time out');
    expect(warnings[0]?.fields).toMatchObject({ messageId: 'req-1' });
    expect(String(warnings[0]?.fields.error)).toMatch(/reply input unreachable/);
  });
});
