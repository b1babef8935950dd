import { describe, expect, it } from 'vitest';
import { DefaultRetryPolicyProvider, RetryPolicy } from '../../src/index.js';

describe('RetryPolicy', () => {
  it('fixed, linear and exponential delays without jitter never consult randomness', () => {
    const noRandom = () => {
      throw new Error('random used');
    };
    const base = { maxRetries: 5, baseDelayMs: 5_000 };
    const delays = (strategy: 'fixed' | 'linear' | 'exponential') =>
      [0, 1, 2, 3].map((a) => new RetryPolicy({ ...base, strategy }).delayFor(a, noRandom));
    expect(delays('fixed')).toEqual([5_000, 5_000, 5_000, 5_000]);
    expect(delays('linear')).toEqual([5_000, 10_000, 15_000, 20_000]);
    expect(delays('exponential')).toEqual([5_000, 10_000, 20_000, 40_000]);
  });

  it('7.7-32/33/34 linear 2 min → 2 min; exponential 3 min → 3 min; 10 min capped by 5 min', () => {
    expect(new RetryPolicy({ maxRetries: 1, strategy: 'linear', baseDelayMs: 120_000 }).delayFor(0)).toBe(
      120_000,
    );
    expect(
      new RetryPolicy({ maxRetries: 1, strategy: 'exponential', baseDelayMs: 180_000 }).delayFor(0),
    ).toBe(180_000);
    expect(new RetryPolicy({ maxRetries: 1, baseDelayMs: 600_000, maxDelayMs: 300_000 }).delayFor(0)).toBe(
      300_000,
    );
  });

  it('full jitter stays in [d, 2d); bounded jitter in [d, d(1+f))', () => {
    const full = new RetryPolicy({ maxRetries: 1, baseDelayMs: 1_000, jitter: 'full' });
    expect(full.delayFor(0, () => 0.5)).toBe(1_500);
    expect(full.delayFor(0, () => 0.999999)).toBeLessThan(2_000);
    expect(full.delayFor(0, () => 0)).toBe(1_000);
    const bounded = new RetryPolicy({
      maxRetries: 1,
      baseDelayMs: 1_000,
      jitter: 'bounded',
      boundedJitterFactor: 0.4,
    });
    expect(bounded.delayFor(0, () => 0.5)).toBe(1_200);
    expect(bounded.delayFor(0, () => 0.9999)).toBeLessThan(1_400);
  });

  it('the max delay cap applies after jitter', () => {
    const policy = new RetryPolicy({ maxRetries: 1, baseDelayMs: 1_000, jitter: 'full', maxDelayMs: 1_200 });
    expect(policy.delayFor(0, () => 0.9)).toBe(1_200);
    const huge = new RetryPolicy({
      maxRetries: 100,
      strategy: 'exponential',
      baseDelayMs: 1e300,
      maxDelayMs: 60_000,
      jitter: 'full',
    });
    expect(huge.delayFor(90, () => 0.5)).toBe(60_000);
  });

  it('rejects negative, NaN and infinite settings with an error naming the field', () => {
    expect(() => new RetryPolicy({ maxRetries: 1, boundedJitterFactor: -1 })).toThrow(/boundedJitterFactor/);
    expect(() => new RetryPolicy({ maxRetries: 1, boundedJitterFactor: Number.NaN })).toThrow(
      /boundedJitterFactor/,
    );
    expect(() => new RetryPolicy({ maxRetries: 1, baseDelayMs: Number.POSITIVE_INFINITY })).toThrow(
      /baseDelayMs/,
    );
    expect(() => new RetryPolicy({ maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

class CrmUnavailableError extends Error {
  override name = 'CrmUnavailableError';
}
class CrmTimeoutError extends CrmUnavailableError {}

describe('DefaultRetryPolicyProvider', () => {
  const a = new RetryPolicy({ maxRetries: 1 });
  const b = new RetryPolicy({ maxRetries: 2 });
  const c = new RetryPolicy({ maxRetries: 3 });

  it('nothing configured → null; default policy as fallback', () => {
    expect(new DefaultRetryPolicyProvider().retryPolicyFor('X', new Error())).toBeNull();
    expect(new DefaultRetryPolicyProvider().setDefaultPolicy(a).retryPolicyFor('X', new Error())).toBe(a);
  });

  it('event type policies match case-insensitively, otherwise the default applies', () => {
    const p = new DefaultRetryPolicyProvider().addEventTypePolicy('OrderPlaced', b).setDefaultPolicy(a);
    expect(p.retryPolicyFor('orderplaced', new Error())).toBe(b);
    expect(p.retryPolicyFor('Other', new Error())).toBe(a);
  });

  it('typed rules match the error or any cause, subclasses included', () => {
    const p = new DefaultRetryPolicyProvider().addErrorRule(CrmUnavailableError, c).setDefaultPolicy(a);
    expect(p.retryPolicyFor('X', new CrmTimeoutError('t'))).toBe(c);
    expect(p.retryPolicyFor('X', new Error('wrap', { cause: new CrmUnavailableError('u') }))).toBe(c);
    expect(p.retryPolicyFor('X', new Error('plain'))).toBe(a);
  });

  it('7.7-36/37 text rules match ignoring case; a non-matching rule falls back to the event type policy', () => {
    const p = new DefaultRetryPolicyProvider()
      .addTextRule('etimedout', c)
      .addEventTypePolicy('OrderPlaced', b);
    expect(p.retryPolicyFor('OrderPlaced', new Error('connect ETIMEDOUT 10.0.0.1'))).toBe(c);
    expect(
      p.retryPolicyFor('OrderPlaced', new Error('other', { cause: new Error('socket ETIMEDOUT') })),
    ).toBe(c);
    expect(p.retryPolicyFor('OrderPlaced', new Error('refused'))).toBe(b);
  });

  it('rules are checked together in registration order; first match wins; scoped rules only for their types', () => {
    const p = new DefaultRetryPolicyProvider()
      .addTextRule('crm', a, 'OrderPlaced')
      .addErrorRule(CrmUnavailableError, b)
      .addTextRule('crm', c);
    expect(p.retryPolicyFor('OrderPlaced', new CrmUnavailableError('crm down'))).toBe(a);
    expect(p.retryPolicyFor('Invoice', new CrmUnavailableError('crm down'))).toBe(b);
    expect(p.retryPolicyFor('Invoice', new Error('crm down'))).toBe(c);
  });

  it('rejects blank and missing arguments', () => {
    const p = new DefaultRetryPolicyProvider();
    expect(() => p.addTextRule(' ', a)).toThrow(/non-blank/);
    expect(() => p.addEventTypePolicy('', a)).toThrow(/non-blank/);
    expect(() => p.addErrorRule(CrmUnavailableError, null as unknown as RetryPolicy)).toThrow(/RetryPolicy/);
  });
});
