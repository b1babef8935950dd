import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  defineCommand,
  defineEvent,
  definePlatformEvent,
  type EventPayload,
  HEARTBEAT_EVENT_TYPE_ID,
  PlatformDefinitionError,
} from '../../src/index.js';
import { CustomerCreated, PlaceCreditHold } from './fixtures.js';

describe('event types', () => {
  it('carries id, kind, description and an inferred payload type', () => {
    expect(CustomerCreated.id).toBe('CustomerCreated');
    expect(CustomerCreated.kind).toBe('event');
    expect(CustomerCreated.description).toBe('A customer was created in the CRM.');
    expect(PlaceCreditHold.kind).toBe('command');
    expectTypeOf<EventPayload<typeof CustomerCreated>>().toEqualTypeOf<{
      customerId: string;
      name: string;
      email?: string | undefined;
    }>();
  });

  it('rejects an invalid id naming it', () => {
    expect(() => defineEvent('1bad id', { schema: z.object({}) })).toThrow(
      new PlatformDefinitionError(
        "Event type id '1bad id' is invalid: use a letter first, then letters, digits, '.', '_' or '-' (at most 200 characters).",
      ),
    );
  });

  it('rejects the reserved heartbeat id for user events and commands', () => {
    const message = `Event type id '${HEARTBEAT_EVENT_TYPE_ID}' is reserved for the platform heartbeat.`;
    expect(() => defineEvent(HEARTBEAT_EVENT_TYPE_ID, { schema: z.object({}) })).toThrow(message);
    expect(() => defineCommand(HEARTBEAT_EVENT_TYPE_ID, { schema: z.object({}) })).toThrow(message);
    expect(definePlatformEvent(HEARTBEAT_EVENT_TYPE_ID, { schema: z.object({}) }).id).toBe(
      HEARTBEAT_EVENT_TYPE_ID,
    );
  });

  it('rejects a definition without a Standard Schema', () => {
    expect(() => defineEvent('NoSchema', { schema: {} as never })).toThrow(
      "Event type 'NoSchema' needs a Standard Schema (for example a zod schema).",
    );
  });
});
