import { describe, expect, it } from 'vitest';
import {
  DefaultRetryPolicyProvider,
  EventHandlerNotFoundError,
  type FailureClassifier,
  MessageType,
  PermanentFailureClassifier,
  PermanentFailureError,
  RetryPolicy,
  TransientError,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

/** The engine fixture with retry policies that count how often the engine asks them (offering `policy`). */
function setupCountingPolicyLookups(
  policy: RetryPolicy | null = null,
  options: Omit<Parameters<typeof setup>[0] & object, 'retryPolicies'> = {},
) {
  let consulted = 0;
  const f = setup({
    ...options,
    retryPolicies: {
      retryPolicyFor: () => {
        consulted++;
        return policy;
      },
    },
  });
  return { f, consulted: () => consulted };
}

// Reference §7.1 (StrictMessageHandlerTests), EventRequest group.
describe('engine: EventRequest', () => {
  it('7.1-1 runs the handler once, sends one ResolutionResponse and completes', async () => {
    const f = setup();
    const e = event();
    await f.deliver(e);
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-2 (adapted: the inbox is not part of this engine) a handler call sees the message identity', async () => {
    const f = setup();
    const e = event();
    await f.deliver(e);
    expect(f.handler.calls[0]?.message.eventId).toBe(e.eventId);
    expect(f.handler.calls[0]?.endpointId).toBe('Billing');
  });

  it('7.1-3 a missing handler gives an UnsupportedResponse, completes, no resolution', async () => {
    const f = setup();
    f.handler.script = (c) => {
      throw new EventHandlerNotFoundError(c.message.eventTypeId);
    };
    await f.deliver(event());
    expect(f.session.responses(MessageType.UnsupportedResponse)).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    expect(f.session.last?.kind).toBe('complete');
    expect(f.session.blockedBy()).toBeNull();
  });

  it('7.1-4 a session blocked by another event parks: DeferralResponse, one park, count +1, completes', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new Error('boom');
    };
    await f.deliver(event());
    f.handler.script = () => undefined;
    await f.deliver(event());
    expect(f.session.responses(MessageType.DeferralResponse)).toHaveLength(1);
    expect(f.session.parked.size).toBe(1);
    expect(f.session.state?.deferredCount).toBe(1);
    expect(f.session.last?.kind).toBe('complete');
    expect(f.handler.calls).toHaveLength(1);
    expect(f.lifecycle.filter((l) => l.startsWith('blocked:'))).toHaveLength(1);
  });

  it('7.1-5 an ordinary handler error sends an ErrorResponse, blocks the session and completes', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new Error('boom');
    };
    const e = event();
    await f.deliver(e);
    const [error] = f.session.responses(MessageType.ErrorResponse);
    expect(error?.content.errorContent?.errorText).toBe('boom');
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-6 a transient error abandons: not completed, not dead-lettered, nothing sent', async () => {
    const f = setup();
    f.handler.script = () => {
      throw new TransientError('db down');
    };
    await f.deliver(event());
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['abandon']);
    expect(f.session.published).toHaveLength(0);
  });

  it('7.1-7 (adapted: no cancellation tokens) a transient error consults no retry policy and sets no block', async () => {
    const { f, consulted } = setupCountingPolicyLookups();
    f.handler.script = () => {
      throw new TransientError('lock lost');
    };
    await f.deliver(event());
    expect(consulted()).toBe(0);
    expect(f.session.blockedBy()).toBeNull();
  });

  it('7.1-8 a PermanentFailureError dead-letters with a notification; no error response, retry or block', async () => {
    const { f, consulted } = setupCountingPolicyLookups();
    f.handler.script = () => {
      throw new PermanentFailureError('payload is not valid JSON');
    };
    await f.deliver(event());
    const last = f.session.last;
    expect(last?.kind).toBe('deadLetter');
    expect(last?.kind === 'deadLetter' && last.reason).toBe('Permanent failure: payload is not valid JSON');
    const [notice] = f.session.responses(MessageType.ErrorResponse);
    expect(notice?.deadLetterReason).toBe('Permanent failure: payload is not valid JSON');
    expect(notice?.deadLetterErrorDescription).toContain('payload is not valid JSON');
    expect(f.session.scheduled()).toHaveLength(0);
    expect(f.session.blockedBy()).toBeNull();
    expect(consulted()).toBe(0);
  });

  const discarding: FailureClassifier = { name: 'DiscardAll', classify: () => 'discard' };

  it('7.1-9 a discard disposition completes with a discard SkipResponse; lifecycle completed, not failed', async () => {
    const seen: unknown[] = [];
    const f = setup({
      failureClassifier: {
        name: 'DiscardAll',
        classify: (error, type, endpoint) => {
          seen.push(error, type, endpoint);
          return 'discard';
        },
      },
    });
    const boom = new Error('stale order');
    f.handler.script = () => {
      throw boom;
    };
    const e = event();
    await f.deliver(e);
    const [skip] = f.session.responses(MessageType.SkipResponse);
    expect(skip?.content.errorContent?.errorText).toBe(
      'Error: stale order Classified as Discard by DiscardAll.',
    );
    expect(seen).toEqual([boom, 'OrderPlaced', 'Billing']);
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(0);
    expect(f.session.blockedBy()).toBeNull();
    expect(f.lifecycle).toEqual([`received:${e.eventId}`, `completed:${e.eventId}`]);
  });

  it('7.1-10 a discard does not block: the next message of the session is handled normally', async () => {
    const f = setup({ failureClassifier: discarding });
    f.handler.script = () => {
      throw new Error('x');
    };
    await f.deliver(event());
    f.handler.script = () => undefined;
    await f.deliver(event());
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBeNull();
  });

  it('7.1-11 a RetryRequest blocked by this and discarded unblocks (replaying nothing: no trigger sent), discard response', async () => {
    const f = setup({ failureClassifier: discarding });
    f.handler.script = () => {
      throw new Error('x');
    };
    const e = event();
    f.session.state = { blockedByEventId: e.eventId, replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry', retryCount: 1 }));
    expect(f.session.blockedBy()).toBeNull();
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(1);
    expect(f.session.responses(MessageType.ProcessDeferredRequest)).toHaveLength(0);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
  });

  it('7.1-12 the permanent classifier dead-letters with a notification and never consults retries', async () => {
    const { f, consulted } = setupCountingPolicyLookups(new RetryPolicy({ maxRetries: 3 }), {
      failureClassifier: new PermanentFailureClassifier(),
    });
    f.handler.script = () => {
      throw new SyntaxError('Unexpected token');
    };
    await f.deliver(event());
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toBe(
      'Permanent failure: SyntaxError: Unexpected token',
    );
    expect(f.session.responses(MessageType.ErrorResponse)[0]?.deadLetterReason).toContain('SyntaxError');
    expect(consulted()).toBe(0);
    expect(f.session.scheduled()).toHaveLength(0);
  });

  it('default provider: no match means no retry and the session stays blocked', async () => {
    const f = setup({ retryPolicies: new DefaultRetryPolicyProvider() });
    f.handler.script = () => {
      throw new Error('x');
    };
    const e = event();
    await f.deliver(e);
    expect(f.session.scheduled()).toHaveLength(0);
    expect(f.session.blockedBy()).toBe(e.eventId);
  });
});
