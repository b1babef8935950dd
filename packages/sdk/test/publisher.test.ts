import { EventValidationError, MessageType } from '@nimbus/core';
import { describe, expect, it, vi } from 'vitest';
import { Publisher } from '../src/index.js';
import { FakeTransport } from './fake-transport.js';
import { Billing, InvoiceCreated, OrderPlaced, order, platform } from './fixtures.js';

function publisher(maxBatchBytes?: number) {
  const transport = new FakeTransport(maxBatchBytes);
  return { transport, sales: new Publisher({ transport, endpoint: 'Sales', platform }) };
}

// Reference §7.4 PublisherClient* and WorkflowPublishing tests, adapted.
describe('Publisher', () => {
  it('builds an EventRequest addressed to the event type, session from the key, new correlation, no From/EventId', async () => {
    const { transport, sales } = publisher();
    const receipt = await sales.publish(OrderPlaced, order(1, 'cust-9'));
    const [call] = transport.calls;
    expect(call?.[0]?.source).toBe('Sales');
    const message = call?.[0]?.messages[0];
    expect(message?.headers).toMatchObject({
      To: 'OrderPlaced',
      MessageType: 'EventRequest',
      EventTypeId: 'OrderPlaced',
      RetryCount: '0',
      OriginatingFrom: 'Sales',
    });
    expect(message?.headers.From).toBeUndefined();
    expect(message?.headers.EventId).toBeUndefined();
    expect(receipt).toMatchObject({ sessionId: 'cust-9', eventTypeId: 'OrderPlaced' });
    expect(receipt.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('explicit session/correlation with and without an explicit null message id give the same deterministic id', async () => {
    const { sales } = publisher();
    const a = await sales.publish(OrderPlaced, order(1), { sessionId: 's', correlationId: 'c' });
    const b = await sales.publish(OrderPlaced, order(1), {
      sessionId: 's',
      correlationId: 'c',
      messageId: undefined,
    });
    expect(a.messageId).toBe(b.messageId);
  });

  it('refuses an event type the endpoint does not declare it produces, sending nothing', async () => {
    const { transport, sales } = publisher();
    await expect(sales.publish(InvoiceCreated, { invoiceId: 'i', orderId: 'o' })).rejects.toThrow(
      "Endpoint 'Sales' does not declare that it produces 'InvoiceCreated'",
    );
    expect(transport.calls).toHaveLength(0);
  });

  it('publishMany pages by the transport budget, shares one correlation, sends an oversized event alone, and sends nothing when empty', async () => {
    const { transport, sales } = publisher(1_200);
    await sales.publishMany([]);
    expect(transport.calls).toHaveLength(0);
    const big = { ...order(99), customerId: 'x'.repeat(2_000) };
    const receipts = await sales.publishMany([
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ type: OrderPlaced, payload: order(n) })),
      { type: OrderPlaced, payload: big },
      { type: OrderPlaced, payload: order(7) },
    ]);
    const pageSizes = transport.calls.map((c) => c[0]?.messages.length);
    expect(pageSizes.reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(8);
    expect(pageSizes.length).toBeGreaterThan(2);
    expect(
      transport.calls.some((c) => c[0]?.messages.length === 1 && c[0].messages[0]?.body.includes('xxxx')),
    ).toBe(true);
    expect(new Set(receipts.map((r) => r.correlationId)).size).toBe(1);
    expect(transport.sent.map((m) => m.correlationId)).toEqual(receipts.map((r) => r.correlationId));
  });

  it('publishMany serialises each event once', async () => {
    const { sales } = publisher(600);
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      await sales.publishMany([1, 2, 3, 4, 5].map((n) => ({ type: OrderPlaced, payload: order(n) })));
      const payloadCalls = spy.mock.calls.filter(
        ([value]) => typeof value === 'object' && value !== null && 'orderId' in value,
      );
      expect(payloadCalls).toHaveLength(5);
    } finally {
      spy.mockRestore();
    }
  });

  it('schedules and cancels', async () => {
    const { transport, sales } = publisher();
    const at = new Date(Date.UTC(2026, 5, 1));
    const handle = await sales.schedule(OrderPlaced, order(1), at);
    expect(transport.scheduled.get(handle.id)?.at).toEqual(at);
    await sales.cancelScheduled(handle);
    expect(transport.scheduled.size).toBe(0);
    await expect(sales.schedule(OrderPlaced, { ...order(1), amount: -5 }, at)).rejects.toBeInstanceOf(
      EventValidationError,
    );
  });

  it('publishFromContext: first hop takes the inbound id as origin; second hop keeps the origin and re-parents', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    await billing.publishFromContext(
      InvoiceCreated,
      { invoiceId: 'i-1', orderId: 'o-1' },
      { messageId: 'inbound-1', sessionId: 's-1', correlationId: 'corr-1', originatingMessageId: 'self' },
      { messageId: 'invoice-for-inbound-1' },
    );
    await billing.publishFromContext(
      InvoiceCreated,
      { invoiceId: 'i-2', orderId: 'o-1' },
      { messageId: 'inbound-2', sessionId: 's-1', correlationId: 'corr-1', originatingMessageId: 'origin-0' },
      { messageId: 'invoice-for-inbound-2' },
    );
    const [first, second] = transport.sent;
    expect(first).toMatchObject({
      messageId: 'invoice-for-inbound-1',
      sessionId: 's-1',
      correlationId: 'corr-1',
      parentMessageId: 'inbound-1',
      originatingMessageId: 'inbound-1',
      messageType: MessageType.EventRequest,
    });
    expect(second).toMatchObject({ parentMessageId: 'inbound-2', originatingMessageId: 'origin-0' });
  });

  it('publishFromContext without an explicit id or without inbound identity throws and sends nothing', async () => {
    const transport = new FakeTransport();
    const billing = new Publisher({ transport, endpoint: Billing });
    const lineage = { messageId: 'm', sessionId: 's', correlationId: 'c', originatingMessageId: 'm' };
    const payload = { invoiceId: 'i', orderId: 'o' };
    await expect(
      billing.publishFromContext(InvoiceCreated, payload, lineage, { messageId: ' ' }),
    ).rejects.toThrow(/deterministic messageId/);
    await expect(
      billing.publishFromContext(InvoiceCreated, payload, { ...lineage, sessionId: '' }, { messageId: 'x' }),
    ).rejects.toThrow(/no sessionId/);
    await expect(
      billing.publishFromContext(InvoiceCreated, { invoiceId: 1 } as never, lineage, { messageId: 'x' }),
    ).rejects.toBeInstanceOf(EventValidationError);
    expect(transport.calls).toHaveLength(0);
  });
});
