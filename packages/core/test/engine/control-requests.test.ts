import { describe, expect, it } from 'vitest';
import {
  DefaultRetryPolicyProvider,
  EventHandlerNotFoundError,
  MessageType,
  PermanentFailureError,
  RetryPolicy,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

function blockedOn(f: ReturnType<typeof setup>, eventId: string | null, deferredCount = 0) {
  f.session.state = { blockedByEventId: eventId, replaying: false, nextSequence: 10, deferredCount };
}

// Reference §7.1 PendingHandoff, HandoffCompleted/Failed, RetryRequest, ResubmissionRequest, SkipRequest, routing.
describe('engine: pending handoff', () => {
  it('7.1-13 a handler that marks a handoff gets a PendingHandoffResponse with its metadata and blocks', async () => {
    const f = setup();
    const expectedBy = new Date(Date.UTC(2026, 0, 2));
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'agent', externalJobId: 'job-7', expectedBy });
    const e = event();
    await f.deliver(e);
    const [pending] = f.session.responses(MessageType.PendingHandoffResponse);
    expect(pending).toMatchObject({ handoffReason: 'agent', externalJobId: 'job-7', expectedBy });
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-14 marking a handoff and then throwing takes the error path', async () => {
    const f = setup();
    f.handler.script = (c) => {
      c.markPendingHandoff({ reason: 'agent' });
      throw new Error('after mark');
    };
    const e = event();
    await f.deliver(e);
    expect(f.session.responses(MessageType.PendingHandoffResponse)).toHaveLength(0);
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe(e.eventId);
  });

  it('7.1-15 two markPendingHandoff calls: one response with the last metadata', async () => {
    const f = setup();
    f.handler.script = (c) => {
      c.markPendingHandoff({ reason: 'first', externalJobId: 'a' });
      c.markPendingHandoff({ reason: 'second', externalJobId: 'b' });
    };
    await f.deliver(event());
    const pending = f.session.responses(MessageType.PendingHandoffResponse);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ handoffReason: 'second', externalJobId: 'b' });
  });

  it('7.1-16 a resubmission (blocked by this) that hands off keeps the block and sends no resolution', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'again' });
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.session.responses(MessageType.PendingHandoffResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
  });

  it('7.1-17 a resubmission that hands off with parked messages replays nothing (no trigger, nothing unparked)', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId, 3);
    f.session.parked.set(1, f.session.deliver(event()));
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'again' });
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.session.parked.size).toBe(1);
    expect(f.session.responses(MessageType.ProcessDeferredRequest)).toHaveLength(0);
    expect(f.handler.calls).toHaveLength(1);
  });

  it('7.1-18 (fixed: the bus decides) a resubmission for a while blocked by b is refused: no handler, block stays on b', async () => {
    const f = setup();
    blockedOn(f, 'event-b');
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'x' });
    const a = event();
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.PendingHandoffResponse)).toHaveLength(0);
    const [refusal] = f.session.responses(MessageType.RefusalResponse);
    expect(refusal).toMatchObject({ eventId: a.eventId, to: 'Resolver' });
    expect(refusal?.content.errorContent).toMatchObject({ errorType: 'ControlRequestRefused' });
    expect(refusal?.content.errorContent?.errorText).toContain("the session is blocked by event 'event-b'");
    expect(f.session.blockedBy()).toBe('event-b');
    expect(f.session.last?.kind).toBe('complete');
  });
  it('7.1-19 a RetryRequest (blocked by this) that hands off: response with metadata, still blocked, no replay', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId, 1);
    f.session.parked.set(1, f.session.deliver(event()));
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'slow', externalJobId: 'j' });
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry' }));
    expect(f.session.responses(MessageType.PendingHandoffResponse)[0]).toMatchObject({
      handoffReason: 'slow',
    });
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.parked.size).toBe(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
  });
});

describe('engine: handoff settlement', () => {
  it('7.1-20 HandoffCompleted from Manager (blocked by this) unblocks and resolves', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.HandoffCompletedRequest, e));
    expect(f.session.blockedBy()).toBeNull();
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-21 HandoffCompleted from anyone else is dead-lettered; no unblock, no resolution', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.HandoffCompletedRequest, e, { from: 'Mallory' }));
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
  });

  it('7.1-22 (fixed) HandoffCompleted while blocked by another event is refused: no resolution, block stays', async () => {
    const f = setup();
    blockedOn(f, 'other');
    await f.deliver(control(MessageType.HandoffCompletedRequest, event()));
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe('other');
    expect(f.session.last?.kind).toBe('complete');
  });
  it('7.1-23 (fixed) HandoffCompleted when not blocked is refused (the handoff was settled already)', async () => {
    const f = setup();
    await f.deliver(control(MessageType.HandoffCompletedRequest, event()));
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    expect(f.session.responses(MessageType.RefusalResponse)[0]?.content.errorContent?.errorText).toContain(
      'the session is not blocked',
    );
    expect(f.session.last?.kind).toBe('complete');
  });
  it('7.1-24 HandoffFailed (blocked by this) sends an ErrorResponse with the operator text verbatim and stays blocked', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    const text = 'ERP rejected job 42: credit limit';
    await f.deliver(
      control(MessageType.HandoffFailedRequest, e, {
        content: {
          eventContent: null,
          errorContent: {
            errorText: text,
            errorType: 'Custom',
            exceptionStackTrace: null,
            exceptionSource: null,
          },
        },
      }),
    );
    const [error] = f.session.responses(MessageType.ErrorResponse);
    expect(error?.content.errorContent?.errorText).toBe(text);
    expect(error?.content.errorContent?.errorType).toBe('HandoffFailedError');
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-25/26 (fixed) HandoffFailed when blocked by another event or not blocked: refused, no error response', async () => {
    for (const blocker of ['other', null]) {
      const f = setup();
      blockedOn(f, blocker);
      await f.deliver(control(MessageType.HandoffFailedRequest, event()));
      expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(0);
      expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(1);
      expect(f.session.blockedBy()).toBe(blocker);
      expect(f.session.last?.kind).toBe('complete');
    }
  });
  it('7.1-27 HandoffFailed from anyone else is dead-lettered with no error response', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.HandoffFailedRequest, e, { from: 'Sales' }));
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.session.responses(MessageType.ErrorResponse).every((r) => r.deadLetterReason !== null)).toBe(
      true,
    );
  });

  it('7.1-28 HandoffCompleted never invokes the handler', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.HandoffCompletedRequest, e));
    expect(f.handler.calls).toHaveLength(0);
  });
});

describe('engine: dead-letter notification', () => {
  it('7.1-29 a resubmission from a non-Manager is dead-lettered with a notification naming the sender', async () => {
    const f = setup();
    await f.deliver(control(MessageType.ResubmissionRequest, event(), { from: 'Sales' }));
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toContain(
      "ResubmissionRequest from 'Sales' is not allowed",
    );
    const [notice] = f.session.responses(MessageType.ErrorResponse);
    expect(notice?.content.errorContent?.errorType).toBe('UnauthorizedRequestError');
    expect(notice?.deadLetterErrorDescription).toContain('UnauthorizedRequestError');
    expect(f.handler.calls).toHaveLength(0);
  });
});

describe('engine: RetryRequest', () => {
  it('7.1-34 blocked by this: handler runs, unblocks, resolves, completes', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry', retryCount: 1 }));
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.blockedBy()).toBeNull();
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
  });

  it('7.1-35 (adapted: no inbox) blocked by this and discarded: unblocks with a SkipResponse', async () => {
    const f = setup({ failureClassifier: { name: 'D', classify: () => 'discard' } });
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = () => {
      throw new Error('gone');
    };
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry' }));
    expect(f.session.blockedBy()).toBeNull();
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(1);
  });

  it('7.1-36/37 (fixed: replay runs in the session) blocked by this with parked messages: they are handled right after, no ProcessDeferredRequest', async () => {
    const f = setup();
    const e = event();
    const parked = [event(), event(), event()];
    blockedOn(f, e.eventId, 3);
    for (const [i, p] of parked.entries()) f.session.parked.set(i + 1, f.session.deliver(p));
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry' }));
    expect(f.handler.handledEventIds).toEqual([e.eventId, ...parked.map((p) => p.eventId)]);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
    expect(f.session.responses(MessageType.ProcessDeferredRequest)).toHaveLength(0);
    expect(f.session.settlements).toHaveLength(1);
  });

  it('7.1-38 (fixed: a stale retry reports nothing) not blocked by this: handler not run, no response, completes', async () => {
    const f = setup();
    blockedOn(f, 'other');
    await f.deliver(control(MessageType.RetryRequest, event(), { from: 'Retry' }));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.published).toHaveLength(0);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-39 blocked by this and the handler throws: ErrorResponse, completes, still blocked', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = () => {
      throw new Error('still down');
    };
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry' }));
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('a permanent failure on a retry dead-letters and the session stays blocked for the operator', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = () => {
      throw new PermanentFailureError('bad');
    };
    await f.deliver(control(MessageType.RetryRequest, e, { from: 'Retry' }));
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.session.blockedBy()).toBe(e.eventId);
  });
});

describe('engine: ResubmissionRequest', () => {
  it('7.1-40 from Manager, blocked by this: handler runs, resolves, completes', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('(fixed: the bus decides) a resubmission of an event that blocks nothing and awaits nothing is refused', async () => {
    const f = setup();
    const e = event();
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(0);
    const [refusal] = f.session.responses(MessageType.RefusalResponse);
    expect(refusal?.content.errorContent?.errorText).toContain(
      `Event '${e.eventId}' cannot be resubmitted: it does not await an operator`,
    );
    expect(f.session.state).toBeNull();
    expect(f.lifecycle).toEqual([`received:${e.eventId}`]);
  });
  it('7.1-41 (adapted) an edited payload reaches the handler', async () => {
    const f = setup();
    const e = event({ json: { amount: 1 } });
    blockedOn(f, e.eventId);
    await f.deliver(
      control(MessageType.ResubmissionRequest, e, {
        content: {
          eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{"amount":2}' },
          errorContent: null,
        },
      }),
    );
    expect(f.handler.calls[0]?.message.content.eventContent?.eventJson).toBe('{"amount":2}');
  });
  it('7.1-42 blocked by this: unblocks', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.session.blockedBy()).toBeNull();
  });

  it('7.1-43 (fixed) blocked by another: refused, the block stays, no handler', async () => {
    const f = setup();
    blockedOn(f, 'other');
    await f.deliver(control(MessageType.ResubmissionRequest, event()));
    expect(f.session.blockedBy()).toBe('other');
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(1);
  });
  it('7.1-44 from a non-Manager: dead-lettered, handler not run', async () => {
    const f = setup();
    await f.deliver(control(MessageType.ResubmissionRequest, event(), { from: 'Retry' }));
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.handler.calls).toHaveLength(0);
  });

  it('7.1-45 handler not found: UnsupportedResponse, completes, and it still awaits an operator', async () => {
    const f = setup();
    f.handler.script = (c) => {
      throw new EventHandlerNotFoundError(c.message.eventTypeId);
    };
    const e = event();
    await f.deliver(e);
    expect(f.session.state).toMatchObject({ awaitingOperator: [e.eventId] });
    await f.deliver(control(MessageType.ResubmissionRequest, e, { acknowledgeOutOfOrder: true }));
    expect(f.handler.calls).toHaveLength(2);
    expect(f.session.responses(MessageType.UnsupportedResponse)).toHaveLength(2);
    expect(f.session.state).toMatchObject({ awaitingOperator: [e.eventId] });
    expect(f.session.last?.kind).toBe('complete');
  });
  it('7.1-46 (fixed, issue 12.4) handler throws on a resubmission: ErrorResponse, still blocked, and a retry is scheduled as for a first delivery', async () => {
    const f = setup({
      retryPolicies: new DefaultRetryPolicyProvider().setDefaultPolicy(
        new RetryPolicy({ maxRetries: 2, baseDelayMs: 1_000 }),
      ),
    });
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = () => {
      throw new Error('again');
    };
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.session.responses(MessageType.ErrorResponse)).toHaveLength(1);
    const [retry] = f.session.scheduled();
    expect(retry?.envelope).toMatchObject({ messageType: MessageType.RetryRequest, eventId: e.eventId });
    expect(retry!.at.getTime()).toBeGreaterThan(f.clock.now());
    expect(f.session.blockedBy()).toBe(e.eventId);
    expect(f.lifecycle.at(-1)).toBe(`failed:${e.eventId}`);
  });

  it('a resubmission with no matching retry policy fails without a retry', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    f.handler.script = () => {
      throw new Error('again');
    };
    await f.deliver(control(MessageType.ResubmissionRequest, e));
    expect(f.session.scheduled()).toHaveLength(0);
    expect(f.session.blockedBy()).toBe(e.eventId);
  });
});

describe('engine: SkipRequest', () => {
  it('7.1-47 from Manager, blocked by this: unblocks, SkipResponse with empty content, completes', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(
      control(MessageType.SkipRequest, e, { content: { eventContent: null, errorContent: null } }),
    );
    const [skip] = f.session.responses(MessageType.SkipResponse);
    expect(skip?.content).toEqual({ eventContent: null, errorContent: null });
    expect(f.session.blockedBy()).toBeNull();
  });

  it('7.1-48 (fixed) not blocked by this: refused with a RefusalResponse, no SkipResponse, state unchanged', async () => {
    const f = setup();
    blockedOn(f, 'other');
    await f.deliver(control(MessageType.SkipRequest, event()));
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(0);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(1);
    expect(f.session.blockedBy()).toBe('other');
  });
  it('7.1-49 from a non-Manager: dead-lettered, no SkipResponse', async () => {
    const f = setup();
    const e = event();
    blockedOn(f, e.eventId);
    await f.deliver(control(MessageType.SkipRequest, e, { from: 'Sales' }));
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(0);
    expect(f.session.blockedBy()).toBe(e.eventId);
  });
});

describe('engine: routing quirks', () => {
  it('7.1-60 an UnsupportedResponse delivered to the endpoint is handled like an EventRequest', async () => {
    const f = setup();
    await f.deliver(event({ messageType: MessageType.UnsupportedResponse }));
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
  });

  it('7.1-61 an ErrorResponse delivered to the endpoint is dead-lettered with a reason naming the type', async () => {
    const f = setup();
    await f.deliver(event({ messageType: MessageType.ErrorResponse }));
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toBe("Unsupported MessageType 'ErrorResponse'.");
    expect(f.handler.calls).toHaveLength(0);
  });
});
