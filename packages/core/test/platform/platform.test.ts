import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineCommand,
  defineEndpoint,
  defineEvent,
  definePlatform,
  ensureCommandConsumers,
  PlatformDefinitionError,
  validateCommandConsumers,
} from '../../src/index.js';
import { Crm, CustomerCreated, Erp, OrderPlaced, PlaceCreditHold } from './fixtures.js';

describe('endpoints', () => {
  it('declares produced and consumed types', () => {
    expect(Crm.produces.map((t) => t.id)).toEqual(['CustomerCreated', 'PlaceCreditHold']);
    expect(Crm.consumes.map((t) => t.id)).toEqual(['OrderPlaced']);
    expect(Crm.heartbeat).toBe(true);
  });

  it('rejects declaring a type twice in one list', () => {
    expect(() => defineEndpoint('Twice', { produces: [OrderPlaced, OrderPlaced] })).toThrow(
      "Endpoint 'Twice' declares that it produces 'OrderPlaced' twice.",
    );
    expect(() => defineEndpoint('Twice', { consumes: [OrderPlaced, OrderPlaced] })).toThrow(
      "Endpoint 'Twice' declares that it consumes 'OrderPlaced' twice.",
    );
  });

  it('rejects invalid and reserved ids', () => {
    expect(() => defineEndpoint('has space')).toThrow(/Endpoint id 'has space' is invalid/);
    for (const reserved of ['Resolver', 'Manager', 'Retry', 'Continuation', 'DeferredProcessor']) {
      expect(() => defineEndpoint(reserved)).toThrow(`Endpoint id '${reserved}' is reserved by NimBus.`);
    }
  });
});

describe('platform', () => {
  const platform = definePlatform([Crm, Erp]);

  it('indexes producers and consumers by event type id', () => {
    expect(platform.getProducers('OrderPlaced').map((e) => e.id)).toEqual(['Erp']);
    expect(platform.getConsumers('CustomerCreated').map((e) => e.id)).toEqual(['Erp']);
    expect(platform.getConsumers('Nothing')).toEqual([]);
    expect(platform.eventTypes.map((t) => t.id).sort()).toEqual([
      'CustomerCreated',
      'OrderPlaced',
      'PlaceCreditHold',
    ]);
    expect(platform.getEndpoint('Crm')).toBe(Crm);
    expect(platform.getEventType('OrderPlaced')).toBe(OrderPlaced);
  });

  it('keeps indexes current after addEndpoint', () => {
    const p = definePlatform([Crm]);
    p.addEndpoint(defineEndpoint('Audit', { consumes: [CustomerCreated] }));
    expect(p.getConsumers('CustomerCreated').map((e) => e.id)).toEqual(['Audit']);
  });

  it('rejects duplicate endpoint ids', () => {
    expect(() => definePlatform([Crm, defineEndpoint('Crm')])).toThrow(
      new PlatformDefinitionError("Endpoint 'Crm' is already part of the platform."),
    );
  });

  it('rejects two different event types with one id', () => {
    const Impostor = defineEvent('OrderPlaced', { schema: z.object({ other: z.string() }) });
    expect(() => definePlatform([Erp, defineEndpoint('Shop', { produces: [Impostor] })])).toThrow(
      "Event type id 'OrderPlaced' is defined twice (second definition used by endpoint 'Shop'); event type ids must be unique.",
    );
  });
});

describe('command consumers', () => {
  it('accepts a command with exactly one consumer', () => {
    const platform = definePlatform([Crm, Erp]);
    expect(validateCommandConsumers(platform)).toEqual([]);
    expect(() => ensureCommandConsumers(platform)).not.toThrow();
  });

  it('reports commands without a consumer and with several, naming them sorted', () => {
    const Orphan = defineCommand('Orphan', { schema: z.object({}) });
    const platform = definePlatform([
      defineEndpoint('Sender', { produces: [PlaceCreditHold, Orphan] }),
      defineEndpoint('Zeta', { consumes: [PlaceCreditHold] }),
      defineEndpoint('Alpha', { consumes: [PlaceCreditHold] }),
    ]);
    const errors = validateCommandConsumers(platform);
    expect(errors).toEqual([
      "Command 'PlaceCreditHold' has 2 consuming endpoints (Alpha, Zeta); a command needs exactly one.",
      "Command 'Orphan' has no consuming endpoint; a command needs exactly one.",
    ]);
    expect(() => ensureCommandConsumers(platform)).toThrow(errors.join('\n'));
  });

  it('ignores plain events with many or no consumers', () => {
    const platform = definePlatform([defineEndpoint('Only', { produces: [CustomerCreated] })]);
    expect(validateCommandConsumers(platform)).toEqual([]);
  });
});
