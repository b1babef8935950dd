import { afterEach, describe, expect, it } from 'vitest';
import { leaseFrom } from '../src/commands/lease-options.js';

describe('nimbus resolver --lease-ms / --lease-renew-ms', () => {
  afterEach(() => {
    delete process.env.NIMBUS_LEASE_MS;
    delete process.env.NIMBUS_LEASE_RENEW_MS;
  });

  it('leaves both to the defaults when not given (the transport lease, renewed every third of it)', () => {
    expect(leaseFrom({})).toEqual({});
  });

  it('takes the options, else the environment', () => {
    expect(leaseFrom({ leaseMs: '10000', leaseRenewMs: '2500' })).toEqual({
      lockDurationMs: 10_000,
      renewalIntervalMs: 2_500,
    });
    process.env.NIMBUS_LEASE_MS = '8000';
    expect(leaseFrom({})).toEqual({ lockDurationMs: 8_000 });
    expect(leaseFrom({ leaseMs: '6000' })).toEqual({ lockDurationMs: 6_000 });
  });

  it('refuses values that are not whole milliseconds, a lease under 1 s, and a renewal past half the lease', () => {
    expect(() => leaseFrom({ leaseMs: 'soon' })).toThrow(
      /--lease-ms \(NIMBUS_LEASE_MS\) must be a whole number of milliseconds >= 1000; got 'soon'/,
    );
    expect(() => leaseFrom({ leaseMs: '500' })).toThrow(/>= 1000; got '500'/);
    expect(() => leaseFrom({ leaseMs: '5000', leaseRenewMs: '4000' })).toThrow(
      /--lease-renew-ms \(4000\) must be at most half the lease \(--lease-ms 5000\)/,
    );
    expect(() => leaseFrom({ leaseRenewMs: '20000' })).toThrow(/at most half the lease \(--lease-ms 30000\)/);
  });
});
