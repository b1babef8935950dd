import { describe, expect, it } from 'vitest';
import {
  DefaultRetryPolicyProvider,
  decodeEnvelope,
  encodeEnvelope,
  MessageType,
  RetryPolicy,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

// The ErrorResponse says whether the policy retries the failure, so the projection can show it as retrying.
describe('engine: the ErrorResponse carries the scheduled retry', () => {
  const failing = () => {
    throw new Error('ERP throttled');
  };

  it('a retried failure carries the limit and when the retry is due; the last one carries neither', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 2_000 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing;
    await f.deliver(event());
    const [first] = f.session.responses(MessageType.ErrorResponse);
    const [retry] = f.session.scheduled();
    expect(first?.retryLimit).toBe(1);
    expect(first?.nextRetryAt?.getTime()).toBe(retry!.at.getTime());
    expect(first?.retryCount).toBe(0);
    // It survives the wire.
    const decoded = decodeEnvelope(encodeEnvelope(first!));
    expect([decoded.retryLimit, decoded.nextRetryAt?.getTime()]).toEqual([1, retry!.at.getTime()]);
    await f.deliver({ ...retry!.envelope, from: 'Retry', to: 'Billing' });
    const last = f.session.responses(MessageType.ErrorResponse)[1];
    expect([last?.retryCount, last?.retryLimit, last?.nextRetryAt]).toEqual([1, null, null]);
  });

  it('without a matching policy the failure carries no retry', async () => {
    const f = setup();
    f.handler.script = failing;
    await f.deliver(event());
    const [response] = f.session.responses(MessageType.ErrorResponse);
    expect([response?.retryLimit, response?.nextRetryAt]).toEqual([null, null]);
  });
});
