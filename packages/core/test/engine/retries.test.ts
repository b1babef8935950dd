import { describe, expect, it } from 'vitest';
import { DefaultRetryPolicyProvider, MessageType, RetryPolicy } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

const failing =
  (message = 'boom') =>
  () => {
    throw new Error(message);
  };

describe('engine: retries', () => {
  it('7.1-30 no retry provider: one ErrorResponse, no RetryRequest', async () => {
    const f = setup();
    f.handler.script = failing();
    await f.deliver(event());
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(1);
    expect(f.session.scheduled()).toHaveLength(0);
  });

  it('7.1-31 a policy (1 retry, 90 s) schedules exactly one RetryRequest to Retry at now + 90 s', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 90_000 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing();
    await f.deliver(event());
    const scheduled = f.session.scheduled();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.envelope.to).toBe('Retry');
    expect(scheduled[0]?.envelope.messageType).toBe(MessageType.RetryRequest);
    expect(scheduled[0]?.at.getTime()).toBe(f.clock.now() + 90_000);
  });

  it('7.1-32 (adapted: no minutes-only response service) sub-minute delays are kept exactly', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 1_500 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing();
    await f.deliver(event());
    expect(f.session.scheduled()[0]?.at.getTime()).toBe(f.clock.now() + 1_500);
  });

  it('7.1-33 the policy lookup uses the header EventTypeId, not the body', async () => {
    const asked: (string | null)[] = [];
    const f = setup({
      retryPolicies: {
        retryPolicyFor: (type) => {
          asked.push(type);
          return null;
        },
      },
    });
    f.handler.script = failing();
    const e = event({ eventTypeId: 'HeaderType' });
    await f.deliver({
      ...e,
      content: { eventContent: { eventTypeId: 'BodyType', eventJson: '{}' }, errorContent: null },
    });
    expect(asked).toEqual(['HeaderType']);
  });

  it('7.7-35/38/39 maxRetries 1: first retry carries RetryCount 1, a failing retry schedules no second one', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 10 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing();
    const e = event();
    await f.deliver(e);
    const [first] = f.session.scheduled();
    expect(first?.envelope.retryCount).toBe(1);
    await f.deliver({ ...(first?.envelope ?? e), from: 'Retry', to: 'Billing' });
    expect(f.session.scheduled()).toHaveLength(1);
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(2);
  });

  it('7.7-39 a failing retry with budget left schedules the next one with RetryCount 2', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 3, baseDelayMs: 1_000, strategy: 'exponential' }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing();
    const e = event();
    await f.deliver(e);
    const first = f.session.scheduled()[0]?.envelope;
    if (!first) throw new Error('no retry');
    await f.deliver({ ...first, from: 'Retry', to: 'Billing' });
    const second = f.session.scheduled()[1];
    expect(second?.envelope.retryCount).toBe(2);
    expect(second?.at.getTime()).toBe(f.clock.now() + 2_000);
  });

  it('7.7-40/41 (fixed: correlation preserved) responses and retries keep session, event and correlation; parent/origin = inbound', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 10 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = failing();
    const e = event({ correlationId: 'business-corr' });
    await f.deliver(e);
    const [error] = f.session.responses(MessageType.ErrorResponse);
    const retry = f.session.scheduled()[0]?.envelope;
    for (const derived of [error, retry]) {
      expect(derived).toMatchObject({
        sessionId: e.sessionId,
        correlationId: 'business-corr',
        parentMessageId: e.messageId,
        originatingMessageId: e.messageId,
        eventTypeId: e.eventTypeId,
        eventId: e.eventId,
        originatingFrom: 'Sales',
      });
    }
    expect(error?.to).toBe('Resolver');
    expect(retry?.to).toBe('Retry');
  });

  it('a retryAfterMs hint stretches the delay, capped at maxDelay', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 2, baseDelayMs: 1_000, maxDelayMs: 30_000 }),
    );
    const f = setup({ retryPolicies: provider });
    f.handler.script = () => {
      throw Object.assign(new Error('429'), { retryAfterMs: 20_000 });
    };
    await f.deliver(event());
    const g = setup({ retryPolicies: provider });
    g.handler.script = () => {
      throw new Error('wrapped', { cause: Object.assign(new Error('429'), { retryAfterMs: 90_000 }) });
    };
    await g.deliver(event());
    const [first] = f.session.scheduled();
    const [second] = g.session.scheduled();
    expect(first && first.at.getTime() - f.clock.now()).toBe(20_000);
    expect(second && second.at.getTime() - g.clock.now()).toBe(30_000);
  });

  it('retries run while siblings stay parked, then replay in order after the retry succeeds', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(
      new RetryPolicy({ maxRetries: 1, baseDelayMs: 10 }),
    );
    const f = setup({ retryPolicies: provider });
    let attempts = 0;
    f.handler.script = (c) => {
      if (c.message.eventId === 'first' && attempts++ === 0) throw new Error('flaky');
    };
    await f.deliver(event({ eventId: 'first' }));
    await f.deliver(event({ eventId: 'second' }));
    const retry = f.session.scheduled()[0]?.envelope;
    if (!retry) throw new Error('no retry');
    await f.deliver({ ...retry, from: 'Retry', to: 'Billing' });
    expect(f.handler.handledEventIds).toEqual(['first', 'first', 'second']);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
  });

  it('control messages ignore retry policies: a failed HandoffFailed never schedules', async () => {
    const provider = new DefaultRetryPolicyProvider().setDefaultPolicy(new RetryPolicy({ maxRetries: 5 }));
    const f = setup({ retryPolicies: provider });
    const e = event();
    f.session.state = { blockedByEventId: e.eventId, replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(control(MessageType.HandoffFailedRequest, e));
    expect(f.session.scheduled()).toHaveLength(0);
  });
});
