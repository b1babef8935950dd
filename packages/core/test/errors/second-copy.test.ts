// Two copies of @nimbus/core in one process (a bundled and a hoisted one) make two NimBusError classes; the
// guards check the shape (code, isRetryable, name), so an error of the other copy still counts.
import { describe, expect, it } from 'vitest';
import {
  isNimBusError,
  isRetryableError,
  isTransportError,
  NimBusError,
  NimBusErrorCode,
  TransportErrorCode,
} from '../../src/index.js';

/** What the second copy's classes look like: same names and fields, a different prototype chain. */
class OtherCopyNimBusError extends Error {
  override name = 'NimBusError';
  constructor(
    readonly code: string,
    message: string,
    readonly isRetryable: boolean,
  ) {
    super(message);
  }
}
class OtherCopyTransportError extends OtherCopyNimBusError {
  override name = 'TransportError';
}

describe('guards by name and code, not instanceof', () => {
  it('a NimBusError of another copy is a NimBus error of its code', () => {
    const error = new OtherCopyNimBusError('InvalidArgument', 'bad', false);
    expect(error instanceof NimBusError).toBe(false);
    expect(isNimBusError(error)).toBe(true);
    expect(isNimBusError(error, NimBusErrorCode.InvalidArgument)).toBe(true);
    expect(isNimBusError(error, NimBusErrorCode.InvalidOption)).toBe(false);
  });

  it('a retryable TransportError of another copy is retryable and a transport error of its code', () => {
    const error = new OtherCopyTransportError('SessionLockLost', 'lost', true);
    expect(isRetryableError(error)).toBe(true);
    expect(isTransportError(error, TransportErrorCode.SessionLockLost)).toBe(true);
    expect(isTransportError(new OtherCopyNimBusError('SessionLockLost', 'lost', true))).toBe(false);
  });

  it('an error with an unknown code or without isRetryable is not one', () => {
    expect(isNimBusError(new OtherCopyNimBusError('NoSuchCode', 'x', false))).toBe(false);
    expect(isNimBusError(Object.assign(new Error('x'), { code: 'InvalidArgument' }))).toBe(false);
    expect(isNimBusError({ code: 'InvalidArgument', isRetryable: false, message: 'x' })).toBe(false);
  });
});
