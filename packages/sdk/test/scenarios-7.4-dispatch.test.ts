import {
  defineEvent,
  EventHandlerNotFoundError,
  MAX_PAYLOAD_DEPTH,
  PermanentFailureError,
} from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSubscriber,
  type DynamicEventHandler,
  defineHandler,
  type HandlerContext,
  HandlerRegistrationError,
} from '../src/index.js';
import { InvoiceCreated, OrderPlaced } from './fixtures.js';
import * as handlerModule from './handler-module.js';
import { contextFor } from './handling-context.js';

// Reference §7.4 NimBus.SDK.Tests: EventHandlerProvider, EventJsonHandler, dynamic/fallback/scoped handler
// registration and subscriber registration, adapted to the TypeScript Subscriber (no DI container: DI
// factories map to handler factories with a `singleton` or `perMessage` lifetime).

const DYNAMIC = 'crm.contact.enriched.v1';

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{"leaf":true}${'}'.repeat(depth - 1)}`;
}

describe('7.4 EventHandlerProvider', () => {
  it('7.4 EventHandlerProvider: header/body type mismatch rejected (neither handler runs)', async () => {
    const runs: string[] = [];
    const subscriber = createSubscriber()
      .on(OrderPlaced, () => void runs.push('OrderPlaced'))
      .onDynamic('InvoiceCreated', () => void runs.push('InvoiceCreated'));
    const attempt = subscriber.asContextHandler().handle(contextFor({ bodyType: 'InvoiceCreated' }));
    await expect(attempt).rejects.toThrow(
      "The message header says event type 'OrderPlaced' but its body carries 'InvoiceCreated'.",
    );
    expect(runs).toEqual([]);
  });

  it('7.4 EventHandlerProvider: an empty body type routes by the header type', async () => {
    const runs: string[] = [];
    const subscriber = createSubscriber().onDynamic(DYNAMIC, (_json, c) => void runs.push(c.eventTypeId));
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC, bodyType: '' }));
    expect(runs).toEqual([DYNAMIC]);
  });

  it('7.4 EventHandlerProvider: a missing header type does not fall back to the body type (not found)', async () => {
    let runs = 0;
    const subscriber = createSubscriber()
      .on(OrderPlaced, () => void runs++)
      .onFallback(() => void runs++);
    const attempt = subscriber
      .asContextHandler()
      .handle(contextFor({ eventTypeId: null, bodyType: 'OrderPlaced' }));
    await expect(attempt).rejects.toBeInstanceOf(EventHandlerNotFoundError);
    expect(runs).toBe(0);
  });

  it('7.4 EventHandlerProvider: an invalid body for a known type is a permanent failure naming the type', async () => {
    let runs = 0;
    const subscriber = createSubscriber().on(OrderPlaced, () => void runs++);
    const attempt = subscriber.asContextHandler().handle(contextFor({ json: '{"orderId":42}' }));
    await expect(attempt).rejects.toBeInstanceOf(PermanentFailureError);
    await expect(
      subscriber.asContextHandler().handle(contextFor({ json: '{"orderId":42}' })),
    ).rejects.toThrow(/OrderPlaced/);
    expect(runs).toBe(0);
  });

  it('7.4 EventHandlerProvider: dynamic and fallback factories are invoked once and keep state across messages', async () => {
    let dynamicBuilds = 0;
    let fallbackBuilds = 0;
    const counts: string[] = [];
    const counter = (label: string): DynamicEventHandler => {
      let seen = 0;
      return () => void counts.push(`${label}${++seen}`);
    };
    const buildDynamic = () => {
      dynamicBuilds += 1;
      return counter('d');
    };
    const buildFallback = () => {
      fallbackBuilds += 1;
      return counter('f');
    };
    const subscriber = createSubscriber()
      .onDynamic(DYNAMIC, { create: buildDynamic })
      .onFallback({ create: buildFallback, lifetime: 'singleton' });
    const handler = subscriber.asContextHandler();
    for (let i = 0; i < 3; i++) {
      await handler.handle(contextFor({ eventTypeId: DYNAMIC }));
      await handler.handle(contextFor({ eventTypeId: 'other.v1' }));
    }
    expect([dynamicBuilds, fallbackBuilds]).toEqual([1, 1]);
    expect(counts).toEqual(['d1', 'f1', 'd2', 'f2', 'd3', 'f3']);
  });
});

describe('7.4 EventJsonHandler', () => {
  it('7.4 EventJsonHandler: handler metadata uses the authoritative (header) type', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber().on(OrderPlaced, (_e, c) => void seen.push(c.eventTypeId));
    await subscriber.asContextHandler().handle(contextFor({ bodyType: '' }));
    expect(seen).toEqual(['OrderPlaced']);
  });

  it('7.4 EventJsonHandler: the context exposes session, parent and originating ids', async () => {
    let context: HandlerContext | null = null;
    const subscriber = createSubscriber().on(OrderPlaced, (_e, c) => {
      context = c;
    });
    await subscriber.asContextHandler().handle(contextFor({ originatingMessageId: 'origin-1' }));
    expect(context).toMatchObject({
      sessionId: 's-1',
      parentMessageId: 'p-0',
      originatingMessageId: 'origin-1',
      correlationId: 'c-1',
    });
  });

  it('7.4 EventJsonHandler: a `self` originating id is normalised to the message own id', async () => {
    const origins: string[] = [];
    const subscriber = createSubscriber().onDynamic(
      DYNAMIC,
      (_j, c) => void origins.push(c.originatingMessageId),
    );
    await subscriber
      .asContextHandler()
      .handle(contextFor({ eventTypeId: DYNAMIC, messageId: 'm-77', originatingMessageId: 'self' }));
    expect(origins).toEqual(['m-77']);
  });

  it.each([
    ['literal null', 'null', /payload is null/],
    ['missing payload', null, /carries no payload/],
    ['malformed JSON', '{"orderId":', /not valid JSON/],
    [`depth > ${MAX_PAYLOAD_DEPTH}`, nested(MAX_PAYLOAD_DEPTH + 1), /nested deeper than 32 levels/],
  ])(
    '7.4 EventJsonHandler: %s is rejected before the handler (typed and dynamic)',
    async (_name, json, reason) => {
      let runs = 0;
      const subscriber = createSubscriber()
        .on(OrderPlaced, () => void runs++)
        .onDynamic(DYNAMIC, () => void runs++);
      for (const eventTypeId of ['OrderPlaced', DYNAMIC]) {
        const attempt = subscriber.asContextHandler().handle(contextFor({ eventTypeId, json }));
        await expect(attempt).rejects.toBeInstanceOf(PermanentFailureError);
        await expect(subscriber.asContextHandler().handle(contextFor({ eventTypeId, json }))).rejects.toThrow(
          reason,
        );
      }
      expect(runs).toBe(0);
    },
  );

  it('7.4 EventJsonHandler: exactly 32 levels is accepted; braces inside strings do not count', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber().onDynamic(DYNAMIC, (json) => void seen.push(json));
    const deepest = nested(MAX_PAYLOAD_DEPTH);
    const bracesInText = JSON.stringify({ text: '{'.repeat(100) });
    for (const json of [deepest, bracesInText]) {
      await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC, json }));
    }
    expect(seen).toEqual([deepest, bracesInText]);
  });

  it('7.4 EventJsonHandler: (N/A in NimBus TS: JSON.parse has no type-name handling) $type and constructor keys stay plain data', async () => {
    const Loose = defineEvent('Loose', { schema: z.looseObject({ name: z.string() }) });
    const seen: unknown[] = [];
    const subscriber = createSubscriber().on(Loose, (e) => void seen.push(e));
    const json = JSON.stringify({
      $type: 'System.Diagnostics.Process, System',
      constructor: { name: 'Function' },
      name: 'x',
    });
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: 'Loose', json }));
    const [value] = seen as Record<string, unknown>[];
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value).toMatchObject({ $type: 'System.Diagnostics.Process, System', name: 'x' });
  });

  it('7.4 EventJsonHandler: (N/A in NimBus TS: no shared serializer settings to mutate) a __proto__ payload changes no prototype', async () => {
    const seen: unknown[] = [];
    const subscriber = createSubscriber().onDynamic(DYNAMIC, (json) => void seen.push(JSON.parse(json)));
    const json = '{"__proto__":{"polluted":true},"a":{"__proto__":{"polluted":true}}}';
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC, json }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const [value] = seen as Record<string, unknown>[];
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
  });
});

describe('7.4 AddDynamicHandler / FallbackHandler / ScopedDynamicHandlerRegistration', () => {
  it('7.4 AddDynamicHandler: a dynamic handler receives the raw JSON text', async () => {
    const json = '{ "contactId" : "c-1", "score": 0.5 }';
    const seen: string[] = [];
    const subscriber = createSubscriber().onDynamic(DYNAMIC, (raw) => void seen.push(raw));
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC, json }));
    expect(seen).toEqual([json]);
  });

  it('7.4 AddDynamicHandler: keyed by the exact id (another case is another id)', async () => {
    let runs = 0;
    const subscriber = createSubscriber().onDynamic(DYNAMIC, () => void runs++);
    await expect(
      subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC.toUpperCase() })),
    ).rejects.toBeInstanceOf(EventHandlerNotFoundError);
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC }));
    expect(runs).toBe(1);
    expect(subscriber.dynamicEventTypeIds).toEqual([DYNAMIC]);
    expect(subscriber.eventTypeIds).toEqual([]);
  });

  it('7.4 AddDynamicHandler: registrations chain', () => {
    const subscriber = createSubscriber();
    const chained = subscriber
      .on(OrderPlaced, () => undefined)
      .onDynamic('a.v1', () => undefined)
      .onDynamic('b.v1', { create: () => () => undefined })
      .onFallback(() => undefined)
      .register(defineHandler(InvoiceCreated, () => undefined));
    expect(chained).toBe(subscriber);
    expect(subscriber.dynamicEventTypeIds).toEqual(['a.v1', 'b.v1']);
    expect(subscriber.hasFallback).toBe(true);
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['whitespace', '  \t'],
  ])('7.4 AddDynamicHandler: a %s event type id is rejected', (_name, id) => {
    expect(() => createSubscriber().onDynamic(id as string, () => undefined)).toThrow(
      /onDynamic needs a non-blank event type id/,
    );
  });

  it('7.4 AddDynamicHandler: a missing handler or factory is rejected', () => {
    const missing = null as unknown as DynamicEventHandler;
    expect(() => createSubscriber().onDynamic(DYNAMIC, missing)).toThrow(
      /needs a handler function or a factory/,
    );
    expect(() => createSubscriber().onFallback({ create: null as unknown as () => never })).toThrow(
      /onFallback needs a handler function or a factory/,
    );
    expect(() =>
      createSubscriber().onDynamic(DYNAMIC, {
        create: () => () => undefined,
        lifetime: 'scoped' as 'singleton',
      }),
    ).toThrow(/lifetime must be 'singleton' or 'perMessage'/);
  });

  it('7.4 AddDynamicHandler: typed↔dynamic conflicts on one id fail fast naming both, in either order', () => {
    expect(() =>
      createSubscriber()
        .on(OrderPlaced, function chargeCard() {})
        .onDynamic('OrderPlaced', function rawOrders() {}),
    ).toThrow(
      "Two handlers for event type 'OrderPlaced': typed handler 'chargeCard' and dynamic handler 'rawOrders'. Register exactly one.",
    );
    expect(() =>
      createSubscriber()
        .onDynamic('OrderPlaced', function rawOrders() {})
        .on(OrderPlaced, function chargeCard() {}),
    ).toThrow(HandlerRegistrationError);
    expect(() =>
      createSubscriber()
        .onDynamic('OrderPlaced', function rawOrders() {})
        .register(handlerModule),
    ).toThrow(/dynamic handler 'rawOrders' and typed handler 'onOrderPlaced'/);
  });

  it('7.4 AddDynamicHandler: dynamic↔dynamic conflicts on one id fail fast naming both', () => {
    expect(() =>
      createSubscriber()
        .onDynamic(DYNAMIC, function first() {})
        .onDynamic(DYNAMIC, {
          create: function buildSecond() {
            return () => undefined;
          },
        }),
    ).toThrow(
      `Two handlers for event type '${DYNAMIC}': dynamic handler 'first' and dynamic handler 'buildSecond'.`,
    );
  });

  it('7.4 AddDynamicHandler: (adapted: factories instead of service-provider resolution) a factory builds the handler that runs', async () => {
    const deps = { store: [] as string[] };
    const subscriber = createSubscriber().onDynamic(DYNAMIC, {
      create: () => (json) => void deps.store.push(json),
    });
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC, json: '{"a":1}' }));
    expect(deps.store).toEqual(['{"a":1}']);
  });

  it('7.4 FallbackHandler: an unregistered id goes to the fallback, which learns the id', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber().onFallback((json, c) => void seen.push(`${c.eventTypeId} ${json}`));
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: 'unknown.v1', json: '{"x":1}' }));
    expect(seen).toEqual(['unknown.v1 {"x":1}']);
  });

  it('7.4 FallbackHandler: a specific handler (typed or dynamic) beats the fallback', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber()
      .on(OrderPlaced, () => void seen.push('typed'))
      .onDynamic(DYNAMIC, () => void seen.push('dynamic'))
      .onFallback(() => void seen.push('fallback'));
    await subscriber.asContextHandler().handle(contextFor());
    await subscriber.asContextHandler().handle(contextFor({ eventTypeId: DYNAMIC }));
    expect(seen).toEqual(['typed', 'dynamic']);
  });

  it('7.4 FallbackHandler: neither a specific handler nor a fallback ⇒ not found (UnsupportedResponse)', async () => {
    const subscriber = createSubscriber().onDynamic(DYNAMIC, () => undefined);
    await expect(
      subscriber.asContextHandler().handle(contextFor({ eventTypeId: 'other.v1' })),
    ).rejects.toThrow("No handler is registered for event type 'other.v1'.");
  });

  it('7.4 FallbackHandler: a second fallback fails fast naming both', () => {
    expect(() =>
      createSubscriber()
        .onFallback(function catchAll() {})
        .onFallback(function another() {}),
    ).toThrow("Two fallback handlers: 'catchAll' and 'another'.");
  });

  it('7.4 ScopedDynamicHandlerRegistration: (N/A in NimBus TS: no DI scopes or root provider) a perMessage factory builds a fresh handler for every message, and a failed singleton build is tried again', async () => {
    const built: number[] = [];
    let failNext = true;
    const subscriber = createSubscriber()
      .onDynamic(DYNAMIC, {
        create: () => {
          const id = built.length + 1;
          built.push(id);
          return () => undefined;
        },
        lifetime: 'perMessage',
      })
      .onFallback({
        create: () => {
          if (failNext) {
            failNext = false;
            throw new Error('dependency not ready');
          }
          return () => undefined;
        },
      });
    const handler = subscriber.asContextHandler();
    await handler.handle(contextFor({ eventTypeId: DYNAMIC }));
    await handler.handle(contextFor({ eventTypeId: DYNAMIC }));
    expect(built).toEqual([1, 2]);
    await expect(handler.handle(contextFor({ eventTypeId: 'x.v1' }))).rejects.toThrow('dependency not ready');
    await handler.handle(contextFor({ eventTypeId: 'x.v1' }));
  });
});

describe('7.4 SubscriberBuilderEventTypeId / SubscriberRegistration', () => {
  it('7.4 SubscriberBuilderEventTypeId: (adapted: ids instead of class names) two distinct event types sharing one id fail fast', () => {
    const SalesOrder = defineEvent('Order', { schema: z.object({ id: z.string() }) });
    const WebOrder = defineEvent('Order', { schema: z.object({ ref: z.number() }) });
    const a = defineHandler(SalesOrder, async function salesOrders() {});
    const b = defineHandler(WebOrder, async function webOrders() {});
    expect(() => createSubscriber().register(a, b)).toThrow(
      /Two handlers for event type 'Order' were found: 'salesOrders' and 'webOrders'/,
    );
  });

  it('7.4 SubscriberBuilderEventTypeId: the same handler registered twice is idempotent', () => {
    const subscriber = createSubscriber()
      .register(handlerModule)
      .register(handlerModule, [handlerModule.onOrderPlaced]);
    expect(subscriber.eventTypeIds).toEqual(['OrderPlaced', 'InvoiceCreated']);
  });

  it('7.4 SubscriberRegistration: (adapted: one subscriber per endpoint) serving a second endpoint fails fast; the same endpoint again is benign', () => {
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    subscriber.bindEndpoint('Billing').bindEndpoint('Billing');
    expect(subscriber.endpointId).toBe('Billing');
    expect(() => subscriber.bindEndpoint('Shipping')).toThrow(
      "This subscriber already serves endpoint 'Billing' and cannot also serve 'Shipping': create one subscriber per endpoint.",
    );
  });

  it('7.4 SubscriberRegistration: (N/A in NimBus TS: no DI scopes) per-message handler state comes from a perMessage factory: each message gets its own instance', async () => {
    const instances = new Set<DynamicEventHandler>();
    const subscriber = createSubscriber().onDynamic(DYNAMIC, {
      create: () => {
        const handler: DynamicEventHandler = () => void instances.add(handler);
        return handler;
      },
      lifetime: 'perMessage',
    });
    for (let i = 0; i < 3; i++) {
      await subscriber
        .asContextHandler()
        .handle(contextFor({ eventTypeId: DYNAMIC, json: JSON.stringify({ i }) }));
    }
    expect(instances.size).toBe(3);
  });
});
