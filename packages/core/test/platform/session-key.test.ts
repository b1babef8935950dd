import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, resolveSessionId, SessionKeyError } from '../../src/index.js';
import { CustomerCreated, OrderPlaced } from './fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('session key resolution', () => {
  it('uses an explicit session id first', () => {
    expect(resolveSessionId(CustomerCreated, { customerId: 'c-1', name: 'A' }, 'explicit')).toBe('explicit');
    expect(resolveSessionId(OrderPlaced, { orderId: 'o', customerId: 'c', total: 1 }, 'explicit')).toBe(
      'explicit',
    );
  });

  it('then the per-type key function', () => {
    expect(resolveSessionId(OrderPlaced, { orderId: 'o-1', customerId: 'c-9', total: 1 })).toBe('c-9');
  });

  it('then the key property, converted to text', () => {
    const Numbered = defineEvent('Numbered', { schema: z.object({ n: z.number() }), sessionKey: 'n' });
    expect(resolveSessionId(CustomerCreated, { customerId: 'c-1', name: 'A' })).toBe('c-1');
    expect(resolveSessionId(Numbered, { n: 42 })).toBe('42');
  });

  it('uses a fresh id when the key property holds null or the function returns nothing', () => {
    const Nullable = defineEvent('Nullable', {
      schema: z.object({ k: z.string().nullable() }),
      sessionKey: 'k',
    });
    const first = resolveSessionId(Nullable, { k: null });
    expect(first).toMatch(UUID);
    expect(resolveSessionId(Nullable, { k: null })).not.toBe(first);
    const Fn = defineEvent('Fn', { schema: z.object({}), sessionKey: () => undefined });
    expect(resolveSessionId(Fn, {})).toMatch(UUID);
  });

  it('uses a fresh id per call when the type declares no key', () => {
    const Free = defineEvent('Free', { schema: z.object({}) });
    const a = resolveSessionId(Free, {});
    expect(a).toMatch(UUID);
    expect(resolveSessionId(Free, {})).not.toBe(a);
  });

  it('rejects a key property that the payload does not have', () => {
    const Broken = defineEvent('Broken', {
      schema: z.object({ id: z.string() }),
      sessionKey: 'missing' as never,
    });
    expect(() => resolveSessionId(Broken, { id: 'x' })).toThrow(SessionKeyError);
    expect(() => resolveSessionId(Broken, { id: 'x' })).toThrow(
      "Event type 'Broken' uses session key property 'missing', which the payload does not have.",
    );
  });
});
