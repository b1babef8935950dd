import { describe, expect, it } from 'vitest';
import { ErpClient } from '../src/erp/erp-client.js';
import { ErpRejectedError, ErpThrottledError, ErpUnavailableError } from '../src/erp/erp-errors.js';
import { erpRetryPolicies } from '../src/erp/erp-retry-policies.js';
import { type ErpFaultPlan, FakeErpApi, noFaults } from '../src/erp/fake-erp-api.js';

const customer = {
  customerId: 'C-1',
  name: 'Ada',
  email: 'a@x.example',
  vatNumber: 'DK12345678',
  revision: 1,
};

function recordingPlan(
  faults: Record<number, 'throttled' | 'unavailable'>,
): ErpFaultPlan & { calls: number[] } {
  const calls: number[] = [];
  const plan = ((n: number) => {
    calls.push(n);
    return faults[n] ?? null;
  }) as ErpFaultPlan & { calls: number[] };
  plan.calls = calls;
  return plan;
}

describe('ErpClient: typed failures at the boundary', () => {
  it('maps 429 to ErpThrottledError, 503 to ErpUnavailableError and 422 to ErpRejectedError', () => {
    const client = new ErpClient(new FakeErpApi(recordingPlan({ 1: 'throttled', 2: 'unavailable' })));
    const throttled = (() => {
      try {
        client.upsertCustomer(customer);
      } catch (error) {
        return error;
      }
    })();
    expect(throttled).toBeInstanceOf(ErpThrottledError);
    expect((throttled as ErpThrottledError).retryAfterMs).toBe(500);
    expect(() => client.upsertCustomer(customer)).toThrow(ErpUnavailableError);
    expect(() => client.upsertCustomer({ ...customer, vatNumber: 'DK-12' })).toThrow(
      "The ERP rejected the customer: vatNumber 'DK-12' is not a valid VAT number",
    );
    expect(client.upsertCustomer(customer)).toBe('applied');
  });

  it('is idempotent by revision: an older or equal revision is not sent again', () => {
    const plan = recordingPlan({});
    const client = new ErpClient(new FakeErpApi(plan));
    expect(client.upsertCustomer({ ...customer, revision: 2 })).toBe('applied');
    expect(client.upsertCustomer({ ...customer, revision: 2 })).toBe('already-applied');
    expect(client.upsertCustomer({ ...customer, revision: 1 })).toBe('already-applied');
    expect(plan.calls).toEqual([1]);
    expect(client.upsertCustomer({ ...customer, revision: 3, name: 'Ada Ltd' })).toBe('applied');
    expect(client.revisionOf('C-1')).toBe(3);
  });

  it('accepts VAT numbers with letters after the country code', () => {
    const client = new ErpClient(new FakeErpApi(noFaults));
    expect(client.upsertCustomer({ ...customer, vatNumber: 'NL123456789B01' })).toBe('applied');
  });
});

describe('erpRetryPolicies', () => {
  const policies = erpRetryPolicies();

  it('retries throttling (fixed) and outages (exponential), also when wrapped as a cause', () => {
    expect(policies.retryPolicyFor('CustomerUpserted', new ErpThrottledError(100))).toMatchObject({
      maxRetries: 5,
      strategy: 'fixed',
    });
    expect(policies.retryPolicyFor('CustomerUpserted', new ErpUnavailableError('down'))).toMatchObject({
      strategy: 'exponential',
    });
    const wrapped = new Error('handler failed', { cause: new ErpThrottledError(1) });
    expect(policies.retryPolicyFor('CustomerUpserted', wrapped)?.strategy).toBe('fixed');
  });

  it('never retries a rejection or an unknown error: the session blocks for an operator', () => {
    expect(policies.retryPolicyFor('CustomerUpserted', new ErpRejectedError('vatNumber', 'bad'))).toBeNull();
    expect(policies.retryPolicyFor('CustomerUpserted', new Error('bug'))).toBeNull();
  });
});
