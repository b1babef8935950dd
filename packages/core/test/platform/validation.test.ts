import { describe, expect, it } from 'vitest';
import { EventValidationError, tryValidate, validateEvent } from '../../src/index.js';
import { CustomerCreated } from './fixtures.js';

describe('event validation', () => {
  it('returns the parsed value for a valid event', () => {
    const result = tryValidate(CustomerCreated, { customerId: 'c-1', name: 'Ada' });
    expect(result).toEqual({ valid: true, value: { customerId: 'c-1', name: 'Ada' } });
  });

  it('returns one field error per problem, with its path', () => {
    const result = tryValidate(CustomerCreated, { customerId: '', email: 'not-an-email' });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['customerId', 'email', 'name']);
  });

  it('throws EventValidationError naming the event type and fields', () => {
    expect(() => validateEvent(CustomerCreated, { customerId: 'x' })).toThrow(EventValidationError);
    expect(() => validateEvent(CustomerCreated, { customerId: 'x' })).toThrow(
      /Event 'CustomerCreated' is invalid: name:/,
    );
  });

  it('refuses asynchronous schemas with a clear message', () => {
    const asyncType = {
      ...CustomerCreated,
      schema: { '~standard': { version: 1, vendor: 'x', validate: async () => ({ value: {} }) } },
    } as unknown as typeof CustomerCreated;
    expect(() => tryValidate(asyncType, {})).toThrow(/asynchronous schema/);
  });
});
