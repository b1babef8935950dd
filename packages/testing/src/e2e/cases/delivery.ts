import { EventValidationError, encodeEnvelope, MessageType } from '@nimbus/core';
import { createSubscriber, deterministicMessageId } from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { NotHandled, OrderCancelled, OrderPlaced, order } from '../platform.js';
import { billingBus, type EngineEndToEnd } from './billing.js';

/** Reference §7.7 NimBus.EndToEnd.Tests (publisher → transport → engine → Resolver input): delivery and routing. */
export function deliveryCases(e2e: EngineEndToEnd): void {
  describe('basic publish and receive', () => {
    it('7.7-1..5 the handler gets the typed event and context; one ResolutionResponse; completed', async () => {
      const bus = await e2e.open();
      const seen: { event: unknown; type: string; correlation: string | null }[] = [];
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, (event, ctx) => {
          seen.push({ event, type: ctx.eventTypeId, correlation: ctx.correlationId });
        }),
      });
      const receipt = await bus
        .publisher('Sales')
        .publish(OrderPlaced, order(1), { correlationId: 'corr-7' });
      await bus.deliverAll();
      expect(seen).toEqual([{ event: order(1), type: 'OrderPlaced', correlation: 'corr-7' }]);
      expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(1);
      expect(await bus.deadLetters('Billing')).toHaveLength(0);
      expect(receipt.correlationId).toBe('corr-7');
    });

    it('7.7-6 explicit session, correlation and message ids round-trip on the EventRequest', async () => {
      const { bus } = await billingBus(e2e);
      await bus
        .publisher('Sales')
        .publish(OrderPlaced, order(1), { sessionId: 's-9', correlationId: 'c-9', messageId: 'm-9' });
      await bus.deliverAll();
      const [request] = bus.requestsTo('Billing');
      expect(request).toMatchObject({
        sessionId: 's-9',
        correlationId: 'c-9',
        messageId: 'm-9',
        messageType: 'EventRequest',
        from: 'Sales',
      });
    });

    it('7.7-7/23 five sequential events of one session are handled in order', async () => {
      const { bus, handled, sales } = await billingBus(e2e);
      for (let n = 1; n <= 5; n++) await sales.publish(OrderPlaced, order(n));
      await bus.deliverAll();
      expect(handled).toEqual([1, 2, 3, 4, 5].map((n) => order(n)));
    });
  });

  describe('batches and validation', () => {
    it('7.7-8/9 a batch of 10 is handled in order and shares one correlation id', async () => {
      const { bus, handled, sales } = await billingBus(e2e);
      const receipts = await sales.publishMany(
        [...Array(10).keys()].map((n) => ({ type: OrderPlaced, payload: order(n) })),
      );
      await bus.deliverAll();
      expect(handled).toEqual([...Array(10).keys()].map((n) => order(n)));
      expect(new Set(receipts.map((r) => r.correlationId)).size).toBe(1);
    });

    it('7.7-10/11 the same payload gets the same message id; different payloads differ', async () => {
      const { sales } = await billingBus(e2e);
      const a = await sales.publish(OrderPlaced, order(1));
      const b = await sales.publish(OrderPlaced, order(1));
      const c = await sales.publish(OrderPlaced, order(2));
      expect(a.messageId).toBe(b.messageId);
      expect(a.messageId).not.toBe(c.messageId);
      expect(a.messageId).toBe(deterministicMessageId('OrderPlaced', JSON.stringify(order(1))));
      expect(a.messageId).toMatch(/^OrderPlaced-[0-9a-f]{16}$/);
    });

    it('7.7-12/13 an invalid event throws EventValidationError and sends nothing; a valid one is handled', async () => {
      const { bus, handled, sales } = await billingBus(e2e);
      await expect(
        sales.publish(OrderPlaced, { orderId: '', customerId: 'c', amount: -1 }),
      ).rejects.toBeInstanceOf(EventValidationError);
      await expect(
        sales.publishMany([
          { type: OrderPlaced, payload: order(1) },
          { type: OrderPlaced, payload: { orderId: '', customerId: 'c', amount: 1 } },
        ]),
      ).rejects.toThrow(/orderId/);
      await bus.deliverAll();
      expect(handled).toEqual([]);
      await sales.publish(OrderPlaced, order(3));
      await bus.deliverAll();
      expect(handled).toEqual([order(3)]);
    });

    it('7.7-14/15 an empty batch sends nothing; a single-item batch behaves like a publish', async () => {
      const { bus, handled, sales } = await billingBus(e2e);
      expect(await sales.publishMany([])).toEqual([]);
      await sales.publishMany([{ type: OrderPlaced, payload: order(1) }]);
      await bus.deliverAll();
      expect(handled).toEqual([order(1)]);
    });
  });

  describe('routing', () => {
    it('7.7-16/18/19 different types reach their own handlers with matching contexts; the same type twice runs twice', async () => {
      const bus = await e2e.open();
      const log: string[] = [];
      bus.endpoint('Billing', {
        subscriber: createSubscriber()
          .on(OrderPlaced, (e, ctx) => void log.push(`placed:${e.orderId}:${ctx.eventTypeId}`))
          .on(OrderCancelled, (e, ctx) => void log.push(`cancelled:${e.orderId}:${ctx.eventTypeId}`)),
      });
      const sales = bus.publisher('Sales');
      await sales.publish(OrderPlaced, order(1));
      await sales.publish(OrderCancelled, { orderId: 'o-1', customerId: 'c-1' });
      await sales.publish(OrderPlaced, order(2));
      await bus.deliverAll();
      expect(log).toEqual([
        'placed:o-1:OrderPlaced',
        'cancelled:o-1:OrderCancelled',
        'placed:o-2:OrderPlaced',
      ]);
    });

    it('7.7-17 an unregistered type gets an UnsupportedResponse', async () => {
      const { bus } = await billingBus(e2e);
      await bus.publisher('Sales').publish(NotHandled, { x: 1 });
      await bus.deliverAll();
      expect(bus.responses({ type: MessageType.UnsupportedResponse })).toHaveLength(1);
    });

    it('7.7-20/24 one event reaches two subscribers; a failure at one does not affect the other', async () => {
      const bus = await e2e.open();
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, () => {
          throw new Error('billing down');
        }),
      });
      const shipped: unknown[] = [];
      bus.endpoint('Shipping', {
        subscriber: createSubscriber().on(OrderPlaced, (e) => void shipped.push(e)),
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1));
      await bus.deliverAll();
      expect(shipped).toEqual([order(1)]);
      const billingEvent = bus.requestsTo('Billing')[0]?.eventId;
      const shippingEvent = bus.requestsTo('Shipping')[0]?.eventId;
      expect(billingEvent).not.toBe(shippingEvent);
      expect(bus.outcomes().get(billingEvent ?? '')).toBe(MessageType.ErrorResponse);
      expect(bus.outcomes().get(shippingEvent ?? '')).toBe(MessageType.ResolutionResponse);
    });

    it('7.7-21 (fixed: in-session replay, no ProcessDeferredRequest) first fails, second parked; skip; second replayed and resolved', async () => {
      let fail = true;
      const { bus, handled, sales } = await billingBus(e2e, (h) => (e) => {
        if (fail && e.orderId === 'o-1') throw new Error('first fails');
        h.push(e);
      });
      await sales.publish(OrderPlaced, order(1));
      await sales.publish(OrderPlaced, order(2));
      await bus.deliverAll();
      const [first, second] = bus.requestsTo('Billing');
      expect(bus.outcomes().get(second?.eventId ?? '')).toBe(MessageType.DeferralResponse);
      fail = false;
      const [error] = bus.responses({ type: MessageType.ErrorResponse });
      await bus.operator.skip(error!);
      await bus.deliverAll();
      expect(handled).toEqual([order(2)]);
      expect(bus.outcomes().get(first?.eventId ?? '')).toBe(MessageType.SkipResponse);
      expect(bus.outcomes().get(second?.eventId ?? '')).toBe(MessageType.ResolutionResponse);
      expect(bus.resolverLog.some((m) => m.messageType === MessageType.ProcessDeferredRequest)).toBe(false);
    });

    it('7.7-22 a resubmission from the operator re-invokes the handler and resolves', async () => {
      let fail = true;
      const { bus, handled, sales } = await billingBus(e2e, (h) => (e) => {
        if (fail) throw new Error('down');
        h.push(e);
      });
      await sales.publish(OrderPlaced, order(1));
      await bus.deliverAll();
      fail = false;
      await bus.operator.resubmit(bus.responses({ type: MessageType.ErrorResponse })[0]!);
      await bus.deliverAll();
      expect(handled).toEqual([order(1)]);
      expect([...bus.outcomes().values()]).toEqual([MessageType.ResolutionResponse]);
    });

    it('7.7-25 a skip from an unauthorized sender is dead-lettered and produces no SkipResponse', async () => {
      const { bus, sales } = await billingBus(e2e, () => () => {
        throw new Error('down');
      });
      await sales.publish(OrderPlaced, order(1));
      await bus.deliverAll();
      const error = bus.responses({ type: MessageType.ErrorResponse })[0]!;
      const skip = await bus.operator.skip(error);
      // Re-send the same skip as if it came from an endpoint instead of the Manager.
      await bus.transport.publish([
        { source: 'Billing', messages: [encodeEnvelope({ ...skip, from: 'Sales', messageId: 'forged' })] },
      ]);
      await bus.deliverAll();
      const dead = await bus.deadLetters('Billing');
      expect(dead.map((d) => d.messageId)).toEqual(['forged']);
      expect(dead[0]?.reason).toContain("SkipRequest from 'Sales' is not allowed");
      expect(bus.responses({ type: MessageType.SkipResponse })).toHaveLength(1);
    });

    it('7.7-26 a blocked session does not block another session', async () => {
      const { bus, handled, sales } = await billingBus(e2e, (h) => (e) => {
        if (e.customerId === 'blocked') throw new Error('x');
        h.push(e);
      });
      await sales.publish(OrderPlaced, order(1, 'blocked'));
      await sales.publish(OrderPlaced, order(2, 'blocked'));
      await sales.publish(OrderPlaced, order(3, 'free'));
      await bus.deliverAll();
      expect(handled).toEqual([order(3, 'free')]);
    });
  });
}
