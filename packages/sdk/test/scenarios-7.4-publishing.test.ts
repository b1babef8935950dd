import { createEnvelope, decodeContent, encodeEnvelope, MessageType } from '@nimbus/core';
import { describe, expect, it, vi } from 'vitest';
import { createHandoffClient, HandoffClient, Publisher } from '../src/index.js';
import { FakeTransport } from './fake-transport.js';
import { Billing, InvoiceCreated, OrderPlaced, order, platform, Sales } from './fixtures.js';

// Reference §7.4 NimBus.SDK.Tests: PublisherClient*, ClasslessPublish, WorkflowPublishing,
// PublisherAsyncApiEnrichment and HandoffClient* tests, adapted (no DI container: clients are plain values).

function salesPublisher(maxBatchBytes?: number) {
  const transport = new FakeTransport(maxBatchBytes);
  return { transport, sales: new Publisher({ transport, endpoint: 'Sales', platform }) };
}

const lineage = { messageId: 'in-1', sessionId: 's-1', correlationId: 'c-1', originatingMessageId: 'self' };
const coordinates = {
  eventId: 'e-1',
  sessionId: 's-1',
  messageId: 'm-1',
  eventTypeId: 'OrderPlaced',
  correlationId: 'c-1',
  originatingMessageId: 'o-1',
};

describe('7.4 PublisherClientBatch', () => {
  it('7.4 PublisherClientBatch: (N/A in NimBus TS: no cached body object) the event JSON travels once, as a string inside the content', async () => {
    const { transport, sales } = salesPublisher();
    await sales.publish(OrderPlaced, order(1));
    const body = transport.calls[0]?.[0]?.messages[0]?.body ?? '';
    const content = decodeContent(body);
    expect(typeof content === 'object' && content.eventContent?.eventJson).toBe(JSON.stringify(order(1)));
    expect(body.split('orderId').length - 1).toBe(1);
  });

  it('7.4 PublisherClientBatch: (adapted: the transport sends the bytes built at publish) the sent body is the one built, never re-serialised', async () => {
    const { transport, sales } = salesPublisher();
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      await sales.publishMany([{ type: OrderPlaced, payload: order(1) }]);
      const payloadCalls = spy.mock.calls.filter(
        ([v]) => typeof v === 'object' && v !== null && 'orderId' in v,
      );
      expect(payloadCalls).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    expect(transport.sent[0]?.content.eventContent?.eventJson).toBe(JSON.stringify(order(1)));
  });

  it('7.4 PublisherClientBatch: small events go in one page with one shared correlation id', async () => {
    const { transport, sales } = salesPublisher();
    const receipts = await sales.publishMany(
      [1, 2, 3].map((n) => ({ type: OrderPlaced, payload: order(n) })),
    );
    expect(transport.calls).toHaveLength(1);
    expect(transport.calls[0]?.[0]?.messages).toHaveLength(3);
    expect(new Set(transport.sent.map((m) => m.correlationId))).toEqual(
      new Set([receipts[0]?.correlationId]),
    );
  });

  it('7.4 PublisherClientBatch: pages split on the transport byte budget, in order', async () => {
    const { transport, sales } = salesPublisher(900);
    await sales.publishMany([1, 2, 3, 4, 5, 6].map((n) => ({ type: OrderPlaced, payload: order(n) })));
    expect(transport.calls.length).toBeGreaterThan(1);
    for (const call of transport.calls) {
      const bytes = call[0]?.messages.reduce((sum, m) => sum + Buffer.byteLength(m.body), 0) ?? 0;
      expect(bytes).toBeLessThanOrEqual(900);
    }
    expect(transport.sent.map((m) => JSON.parse(m.content.eventContent?.eventJson ?? '{}').amount)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('7.4 PublisherClientBatch: an oversized event goes alone in its own page', async () => {
    const { transport, sales } = salesPublisher(900);
    const big = { ...order(9), customerId: 'x'.repeat(2_000) };
    await sales.publishMany([
      { type: OrderPlaced, payload: order(1) },
      { type: OrderPlaced, payload: big },
      { type: OrderPlaced, payload: order(2) },
    ]);
    expect(transport.calls.map((c) => c[0]?.messages.length)).toEqual([1, 1, 1]);
  });

  it('7.4 PublisherClientBatch: no events ⇒ nothing sent', async () => {
    const { transport, sales } = salesPublisher();
    expect(await sales.publishMany([])).toEqual([]);
    expect(transport.calls).toHaveLength(0);
  });

  it('7.4 PublisherClientBatch: each event is built and serialised once end to end, across pages', async () => {
    const { sales } = salesPublisher(600);
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      await sales.publishMany([1, 2, 3, 4, 5].map((n) => ({ type: OrderPlaced, payload: order(n) })));
      const payloadCalls = spy.mock.calls.filter(
        ([v]) => typeof v === 'object' && v !== null && 'orderId' in v,
      );
      expect(payloadCalls).toHaveLength(5);
    } finally {
      spy.mockRestore();
    }
  });

  it('7.4 PublisherClientBatch: (N/A in NimBus TS: no static GetBatches helper) paging measures each event once, from the bytes it sends', async () => {
    const { transport, sales } = salesPublisher(700);
    await sales.publishMany([1, 2, 3, 4].map((n) => ({ type: OrderPlaced, payload: order(n) })));
    const pages = transport.calls.map((c) => c[0]?.messages.length ?? 0);
    expect(pages.reduce((a, b) => a + b, 0)).toBe(4);
    expect(pages.length).toBeGreaterThan(1);
  });
});

describe('7.4 PublisherClientPublishOverload / ClasslessPublish', () => {
  it('7.4 PublisherClientPublishOverload: with and without an explicit undefined message id ⇒ same deterministic id and body', async () => {
    const { transport, sales } = salesPublisher();
    const a = await sales.publish(OrderPlaced, order(1), { sessionId: 's', correlationId: 'c' });
    const b = await sales.publish(OrderPlaced, order(1), {
      sessionId: 's',
      correlationId: 'c',
      messageId: undefined,
    });
    expect(a.messageId).toBe(b.messageId);
    const [first, second] = transport.calls.map((c) => c[0]?.messages[0]?.body);
    expect(first).toBe(second);
  });

  it('7.4 ClasslessPublish: a pre-built message is sent unchanged (publishMessage)', async () => {
    const transport = new FakeTransport();
    const agent = new Publisher({ transport, endpoint: 'Agent' });
    const envelope = createEnvelope({
      messageId: 'agent-msg-1',
      to: 'crm.contact.enriched.v1',
      sessionId: 'contact-42',
      correlationId: 'corr-agent',
      messageType: MessageType.EventRequest,
      eventTypeId: 'crm.contact.enriched.v1',
      originatingFrom: 'Agent',
      content: {
        eventContent: { eventTypeId: 'crm.contact.enriched.v1', eventJson: '{"contactId":"42"}' },
        errorContent: null,
      },
    });
    await agent.publishMessage(envelope);
    const [sent] = transport.calls[0]?.[0]?.messages ?? [];
    expect(sent).toEqual(encodeEnvelope(envelope));
    await expect(agent.publishMessage({ ...envelope, sessionId: '' })).rejects.toThrow(
      'publishMessage: the envelope has no sessionId.',
    );
  });

  it('7.4 ClasslessPublish: publishRaw builds an EventRequest from a string id and JSON text, with a deterministic id and no schema', async () => {
    const transport = new FakeTransport();
    const agent = new Publisher({ transport, endpoint: 'Agent' });
    const json = '{"contactId":"42","rationale":null}';
    const a = await agent.publishRaw('crm.contact.enriched.v1', json, { sessionId: 'contact-42' });
    const b = await agent.publishRaw('crm.contact.enriched.v1', json);
    expect(a.messageId).toBe(b.messageId);
    expect(b.sessionId).not.toBe('contact-42');
    expect(transport.sent[0]).toMatchObject({
      to: 'crm.contact.enriched.v1',
      eventTypeId: 'crm.contact.enriched.v1',
      messageType: MessageType.EventRequest,
      sessionId: 'contact-42',
      content: { eventContent: { eventTypeId: 'crm.contact.enriched.v1', eventJson: json } },
    });
    await expect(agent.publishRaw('crm.contact.enriched.v1', '{oops')).rejects.toThrow(/not valid JSON/);
    await expect(agent.publishRaw(' ', '{}')).rejects.toThrow(/non-blank event type id/);
    expect(transport.calls).toHaveLength(2);
  });
});

describe('7.4 WorkflowPublishing', () => {
  it('7.4 WorkflowPublishing: (N/A in NimBus TS: no legacy context interface) a lineage without an origin is treated as a first hop', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    await billing.publishFromContext(
      InvoiceCreated,
      { invoiceId: 'i', orderId: 'o' },
      { ...lineage, originatingMessageId: '' },
      { messageId: 'x-1' },
    );
    expect(transport.sent[0]).toMatchObject({ parentMessageId: 'in-1', originatingMessageId: 'in-1' });
  });

  it('7.4 WorkflowPublishing: the first hop without lineage uses the inbound message id as origin', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    await billing.publishFromContext(InvoiceCreated, { invoiceId: 'i', orderId: 'o' }, lineage, {
      messageId: 'x-1',
    });
    expect(transport.sent[0]).toMatchObject({
      sessionId: 's-1',
      correlationId: 'c-1',
      parentMessageId: 'in-1',
      originatingMessageId: 'in-1',
    });
  });

  it('7.4 WorkflowPublishing: the second hop re-parents and keeps the origin', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    await billing.publishFromContext(
      InvoiceCreated,
      { invoiceId: 'i', orderId: 'o' },
      { ...lineage, messageId: 'in-2', originatingMessageId: 'origin-0' },
      { messageId: 'x-2' },
    );
    expect(transport.sent[0]).toMatchObject({ parentMessageId: 'in-2', originatingMessageId: 'origin-0' });
  });

  it('7.4 WorkflowPublishing: (N/A here: the outbox is @nimbus/reliability) publishing twice from one context builds identical metadata', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    const payload = { invoiceId: 'i', orderId: 'o' };
    await billing.publishFromContext(InvoiceCreated, payload, lineage, { messageId: 'x-1' });
    await billing.publishFromContext(InvoiceCreated, payload, lineage, { messageId: 'x-1' });
    const [a, b] = transport.calls.map((c) => c[0]?.messages[0]);
    expect(a?.body).toBe(b?.body);
    expect({ ...a?.headers, traceparent: undefined }).toEqual({ ...b?.headers, traceparent: undefined });
  });

  it('7.4 WorkflowPublishing: (N/A in NimBus TS: no cancellation tokens) a failing send rejects the publish with the transport error', async () => {
    const transport = new FakeTransport();
    transport.publish = async () => {
      throw new Error('broker unavailable');
    };
    const billing = new Publisher({ transport, endpoint: Billing });
    await expect(
      billing.publishFromContext(InvoiceCreated, { invoiceId: 'i', orderId: 'o' }, lineage, {
        messageId: 'x',
      }),
    ).rejects.toThrow('broker unavailable');
  });

  it('7.4 WorkflowPublishing: a missing explicit message id or inbound identity throws and sends nothing', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    const payload = { invoiceId: 'i', orderId: 'o' };
    await expect(
      billing.publishFromContext(InvoiceCreated, payload, lineage, { messageId: '' }),
    ).rejects.toThrow('publishFromContext needs an explicit, deterministic messageId.');
    await expect(
      billing.publishFromContext(InvoiceCreated, payload, { ...lineage, sessionId: '' }, { messageId: 'x' }),
    ).rejects.toThrow('publishFromContext: the context has no sessionId.');
    expect(transport.calls).toHaveLength(0);
  });

  it('7.4 WorkflowPublishing: a follow-up of a message without a correlation id inherits its message id', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    const payload = { invoiceId: 'i', orderId: 'o' };
    for (const correlationId of [null, '']) {
      const receipt = await billing.publishFromContext(
        InvoiceCreated,
        payload,
        { ...lineage, correlationId },
        { messageId: `x-${correlationId}` },
      );
      expect(receipt.correlationId).toBe(lineage.messageId);
    }
    expect(transport.calls).toHaveLength(2);
  });

  it('7.4 WorkflowPublishing: an invalid event throws EventValidationError naming the field and sends nothing', async () => {
    const { transport, sales } = salesPublisher();
    await expect(sales.publish(OrderPlaced, { ...order(1), orderId: '' })).rejects.toThrow(/orderId/);
    expect(transport.calls).toHaveLength(0);
  });

  it('7.4 PublisherAsyncApiEnrichment: (N/A in NimBus TS: no AsyncAPI export; the platform model is the catalogue) declarations stay on the endpoint and publishing is unaffected', async () => {
    expect(Sales.produces.map((t) => t.id)).toEqual(['OrderPlaced']);
    const { transport, sales } = salesPublisher();
    await sales.publish(OrderPlaced, order(1));
    expect(transport.sent).toHaveLength(1);
  });
});

describe('7.4 HandoffClientRegistration / HandoffClientFactory', () => {
  it('7.4 HandoffClientRegistration: two endpoints get their own clients', () => {
    const transport = new FakeTransport();
    const a = createHandoffClient(transport, 'Billing');
    const b = createHandoffClient(transport, 'Shipping');
    expect([a.endpointId, b.endpointId]).toEqual(['Billing', 'Shipping']);
    expect(a).not.toBe(b);
  });

  it('7.4 HandoffClientRegistration: (N/A in NimBus TS: no default client) a client is always built for an explicit endpoint', () => {
    expect(() => new HandoffClient(new FakeTransport(), undefined as unknown as string)).toThrow(
      'HandoffClient needs an endpoint id.',
    );
  });

  it('7.4 HandoffClientRegistration: each client sends to its own endpoint, from Manager', async () => {
    const transport = new FakeTransport();
    await createHandoffClient(transport, 'Billing').complete(coordinates);
    await createHandoffClient(transport, 'Shipping').fail(coordinates, 'no stock');
    expect(transport.calls.map((c) => c[0]?.source)).toEqual(['Billing', 'Shipping']);
    expect(transport.sent.map((m) => [m.to, m.from])).toEqual([
      ['Billing', 'Manager'],
      ['Shipping', 'Manager'],
    ]);
  });

  it('7.4 HandoffClientRegistration: missing lineage sends with fallbacks (originating = message id, no correlation)', async () => {
    const transport = new FakeTransport();
    await createHandoffClient(transport, 'Billing').complete({
      eventId: 'e',
      sessionId: 's',
      messageId: 'm',
    });
    expect(transport.sent[0]).toMatchObject({
      originatingMessageId: 'm',
      parentMessageId: 'm',
      correlationId: null,
    });
  });

  it('7.4 HandoffClientRegistration: complete and fail wire shapes are pinned', async () => {
    const transport = new FakeTransport();
    const client = createHandoffClient(transport, 'Billing');
    await client.complete(coordinates, { invoice: 'i-1' });
    await client.fail(coordinates, 'Supplier rejected the order', 'SupplierError');
    const [completed, failed] = transport.sent;
    expect(completed).toMatchObject({
      messageType: MessageType.HandoffCompletedRequest,
      eventId: 'e-1',
      sessionId: 's-1',
      eventTypeId: 'OrderPlaced',
      correlationId: 'c-1',
      parentMessageId: 'm-1',
      originatingMessageId: 'o-1',
      content: {
        eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{"invoice":"i-1"}' },
        errorContent: null,
      },
    });
    expect(failed).toMatchObject({
      messageType: MessageType.HandoffFailedRequest,
      content: {
        eventContent: null,
        errorContent: { errorText: 'Supplier rejected the order', errorType: 'SupplierError' },
      },
    });
  });

  it('7.4 HandoffClientRegistration: missing required coordinates throw and nothing is sent', async () => {
    const transport = new FakeTransport();
    const client = createHandoffClient(transport, 'Billing');
    for (const field of ['eventId', 'sessionId', 'messageId'] as const) {
      await expect(client.complete({ ...coordinates, [field]: ' ' })).rejects.toThrow(
        `Handoff coordinates need a ${field}.`,
      );
    }
    expect(() => client.fail(coordinates, '')).toThrow('HandoffClient.fail needs an error text.');
    expect(transport.calls).toHaveLength(0);
  });

  it('7.4 HandoffClientFactory: (N/A in NimBus TS: no client cache; a client holds no connection) two clients for one endpoint send identical shapes', async () => {
    const transport = new FakeTransport();
    await createHandoffClient(transport, 'Billing').complete(coordinates);
    await createHandoffClient(transport, 'Billing').complete(coordinates);
    const [a, b] = transport.sent;
    expect({ ...a, messageId: '' }).toEqual({ ...b, messageId: '' });
  });

  it('7.4 HandoffClientFactory: (adapted: no sender to create) concurrent first use sends each settlement exactly once', async () => {
    const transport = new FakeTransport();
    const client = createHandoffClient(transport, 'Billing');
    await Promise.all(['e-1', 'e-2', 'e-3'].map((eventId) => client.complete({ ...coordinates, eventId })));
    expect(transport.sent.map((m) => m.eventId).sort()).toEqual(['e-1', 'e-2', 'e-3']);
  });

  it('7.4 HandoffClientFactory: a failed send is not remembered: the next call sends', async () => {
    const transport = new FakeTransport();
    const publish = transport.publish.bind(transport);
    let fail = true;
    transport.publish = async (requests) => {
      if (fail) {
        fail = false;
        throw new Error('connection refused');
      }
      return publish(requests);
    };
    const client = createHandoffClient(transport, 'Billing');
    await expect(client.complete(coordinates)).rejects.toThrow('connection refused');
    await client.complete(coordinates);
    expect(transport.sent).toHaveLength(1);
  });

  it('7.4 HandoffClientFactory: distinct endpoints never share a client', () => {
    const transport = new FakeTransport();
    const clients = ['A', 'B', 'C'].map((e) => createHandoffClient(transport, e));
    expect(new Set(clients.map((c) => c.endpointId)).size).toBe(3);
  });

  it('7.4 HandoffClientFactory: a blank endpoint or missing transport is rejected', () => {
    expect(() => createHandoffClient(new FakeTransport(), '  ')).toThrow(
      'HandoffClient needs an endpoint id.',
    );
    expect(() => createHandoffClient(undefined as never, 'Billing')).toThrow(
      'HandoffClient needs a transport.',
    );
  });

  it('7.4 HandoffClientFactory: (N/A in NimBus TS: no DI registration) creating clients repeatedly is harmless and sends nothing', () => {
    const transport = new FakeTransport();
    for (let i = 0; i < 3; i++) createHandoffClient(transport, 'Billing');
    expect(transport.calls).toHaveLength(0);
  });
});
