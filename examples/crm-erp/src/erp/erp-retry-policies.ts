import { DefaultRetryPolicyProvider, RetryPolicy } from '@nimbus/core';
import { ErpThrottledError, ErpUnavailableError } from './erp-errors.js';

/**
 * Throttling and outages are retried automatically; a rejection has no rule, so it is not retried and the
 * customer's session blocks until an operator resubmits (possibly with a corrected payload) or skips it.
 */
export function erpRetryPolicies(): DefaultRetryPolicyProvider {
  return new DefaultRetryPolicyProvider()
    .addErrorRule(ErpThrottledError, new RetryPolicy({ maxRetries: 5, strategy: 'fixed', baseDelayMs: 500 }))
    .addErrorRule(
      ErpUnavailableError,
      new RetryPolicy({ maxRetries: 5, strategy: 'exponential', baseDelayMs: 500, maxDelayMs: 10_000 }),
    );
}
