import { EventHandlerNotFoundError, PermanentFailureError } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import {
  createSubscriber,
  defineHandler,
  type HandlerContext,
  HandlerRegistrationError,
} from '../src/index.js';
import { InvoiceCreated, OrderPlaced, order } from './fixtures.js';
import * as handlerModule from './handler-module.js';
import { contextFor } from './handling-context.js';

// Reference §7.4 EventHandlerProvider / EventJsonHandler / SubscriberBuilder / scanning tests, adapted.
describe('Subscriber dispatch', () => {
  it('runs the typed handler with the parsed payload and a context exposing identity and lineage', async () => {
    let seen: { event: unknown; ctx: HandlerContext } | null = null;
    const subscriber = createSubscriber().on(OrderPlaced, (event, ctx) => {
      seen = { event, ctx };
    });
    await subscriber.asContextHandler().handle(contextFor());
    expect(seen!.event).toEqual(order(1));
    expect(seen!.ctx).toMatchObject({
      messageId: 'm-1',
      eventId: 'e-1',
      eventTypeId: 'OrderPlaced',
      sessionId: 's-1',
      correlationId: 'c-1',
      parentMessageId: 'p-0',
      originatingMessageId: 'm-1', // `self` normalised to the message's own id
    });
  });

  it('keeps a real originating id as it is', async () => {
    let origin = '';
    const subscriber = createSubscriber().on(OrderPlaced, (_e, ctx) => {
      origin = ctx.originatingMessageId;
    });
    await subscriber.asContextHandler().handle(contextFor({ originatingMessageId: 'first' }));
    expect(origin).toBe('first');
  });

  it('rejects a header/body type mismatch as permanent without running any handler', async () => {
    let runs = 0;
    const subscriber = createSubscriber()
      .on(OrderPlaced, () => void runs++)
      .on(InvoiceCreated, () => void runs++);
    await expect(
      subscriber.asContextHandler().handle(contextFor({ bodyType: 'InvoiceCreated' })),
    ).rejects.toBeInstanceOf(PermanentFailureError);
    expect(runs).toBe(0);
  });

  it('an empty body type routes by the header type; a missing header type is "not found"', async () => {
    let runs = 0;
    const subscriber = createSubscriber().on(OrderPlaced, () => void runs++);
    await subscriber.asContextHandler().handle(contextFor({ bodyType: '' }));
    expect(runs).toBe(1);
    await expect(
      subscriber.asContextHandler().handle(contextFor({ eventTypeId: null, bodyType: 'OrderPlaced' })),
    ).rejects.toBeInstanceOf(EventHandlerNotFoundError);
  });

  it('an unregistered type is "not found"', async () => {
    const subscriber = createSubscriber().on(InvoiceCreated, () => undefined);
    await expect(subscriber.asContextHandler().handle(contextFor())).rejects.toBeInstanceOf(
      EventHandlerNotFoundError,
    );
  });

  it.each([
    ['literal null', 'null', /is null/],
    ['malformed JSON', '{"orderId":', /not valid JSON/],
    ['schema violation', JSON.stringify({ orderId: '', customerId: 'c', amount: -1 }), /is invalid/],
  ])('rejects %s as permanent before the handler runs', async (_name, json, message) => {
    let runs = 0;
    const subscriber = createSubscriber().on(OrderPlaced, () => void runs++);
    const attempt = subscriber.asContextHandler().handle(contextFor({ json }));
    await expect(attempt).rejects.toBeInstanceOf(PermanentFailureError);
    await expect(subscriber.asContextHandler().handle(contextFor({ json }))).rejects.toThrow(message);
    expect(runs).toBe(0);
  });

  it('rejects a missing payload as permanent', async () => {
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    await expect(subscriber.asContextHandler().handle(contextFor({ json: '' }))).rejects.toThrow(
      /carries no payload/,
    );
  });

  it('markPendingHandoff reaches the engine context (last call wins)', async () => {
    const subscriber = createSubscriber().on(OrderPlaced, (_e, ctx) => {
      ctx.markPendingHandoff({ reason: 'one' });
      ctx.markPendingHandoff({ reason: 'two', externalJobId: 'j' });
    });
    const ctx = contextFor();
    await subscriber.asContextHandler().handle(ctx);
    expect(ctx.pendingHandoff).toMatchObject({ reason: 'two', externalJobId: 'j' });
  });

  it('context.publish without a publisher explains how to wire one', async () => {
    const subscriber = createSubscriber().on(OrderPlaced, async (_e, ctx) => {
      await ctx.publish(InvoiceCreated, { invoiceId: 'i', orderId: 'o' }, { messageId: 'x' });
    });
    await expect(subscriber.asContextHandler().handle(contextFor())).rejects.toThrow(/needs a publisher/);
  });
});

describe('Subscriber registration', () => {
  it('two explicit handlers for one type fail fast, naming both', () => {
    const subscriber = createSubscriber().on(OrderPlaced, function chargeCard() {});
    expect(() => subscriber.on(OrderPlaced, function sendReceipt() {})).toThrow(
      "Two handlers for event type 'OrderPlaced': typed handler 'chargeCard' and typed handler 'sendReceipt'",
    );
  });

  it('scans modules and arrays; the same definition twice is ignored', () => {
    const subscriber = createSubscriber().register(handlerModule, [handlerModule.onOrderPlaced]);
    expect(subscriber.eventTypeIds).toEqual(['OrderPlaced', 'InvoiceCreated']);
    expect(subscriber.handlerFor('OrderPlaced')?.name).toBe('onOrderPlaced');
  });

  it('two different scanned handlers for one type fail fast, naming both', () => {
    const other = defineHandler(OrderPlaced, async function otherOrderHandler() {});
    expect(() => createSubscriber().register(handlerModule, other)).toThrow(HandlerRegistrationError);
    expect(() => createSubscriber().register(handlerModule, other)).toThrow(
      /'onOrderPlaced' and 'otherOrderHandler'/,
    );
  });

  it('an explicit registration before a scan wins', () => {
    const subscriber = createSubscriber()
      .on(OrderPlaced, function special() {})
      .register(
        handlerModule,
        defineHandler(OrderPlaced, async function otherOrderHandler() {}),
      );
    expect(subscriber.handlerFor('OrderPlaced')?.name).toBe('special');
  });

  it('rejects things that are not handler sources', () => {
    expect(() => createSubscriber().register(42)).toThrow(/accepts handler definitions/);
  });
});
