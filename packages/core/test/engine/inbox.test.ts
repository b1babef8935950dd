import { describe, expect, it } from 'vitest';
import {
  type MessageEngineOptions,
  type MessageEnvelope,
  MessageType,
  TransientError,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

type EngineInbox = NonNullable<MessageEngineOptions['inbox']>;

/** An inbox over a set, with the decision logic of `createInbox` (blank ids bypass) and switchable failures. */
class SetInbox implements EngineInbox {
  readonly records = new Set<string>();
  readonly checks: string[] = [];
  failCheck = false;
  failRecord = false;
  async check(endpointId: string, messageId: string) {
    this.checks.push(messageId);
    if (!messageId.trim()) return 'bypass' as const;
    if (this.failCheck) throw new Error('inbox store down');
    return this.records.has(`${endpointId}|${messageId}`) ? ('duplicate' as const) : ('process' as const);
  }
  async record(endpointId: string, messageId: string) {
    if (this.failRecord) throw new Error('inbox store down');
    this.records.add(`${endpointId}|${messageId}`);
  }
  recorded(message: MessageEnvelope) {
    this.records.add(`Billing|${message.messageId}`);
    return message;
  }
}

function withInbox(extra: Partial<MessageEngineOptions> = {}) {
  const inbox = new SetInbox();
  return { inbox, ...setup({ extra: { inbox, ...extra } }) };
}

function duplicates(f: ReturnType<typeof withInbox>) {
  return f.session
    .responses(MessageType.SkipResponse)
    .filter((r) => r.content.errorContent?.errorText === 'DuplicateDetected');
}

describe('engine: inbox pre-check (reference 7.1-62..70, adapted)', () => {
  it('7.1-62 a recorded RetryRequest in an open session: handler not run, duplicate SkipResponse, nothing else', async () => {
    const f = withInbox();
    const retry = f.inbox.recorded(control(MessageType.RetryRequest, event(), { from: 'Billing' }));
    await f.deliver(retry);
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses().map((r) => r.messageType)).toEqual([MessageType.SkipResponse]);
    const [duplicate] = duplicates(f);
    expect(duplicate).toMatchObject({
      eventId: retry.eventId,
      parentMessageId: retry.messageId,
      to: 'Resolver',
    });
    expect(duplicate?.content.eventContent).toEqual(retry.content.eventContent);
    expect(f.session.state).toBeNull();
    expect(f.session.last?.kind).toBe('complete');
    expect(f.lifecycle).toEqual([
      `received:${retry.eventId}`,
      `duplicate:${retry.eventId}`,
      `completed:${retry.eventId}`,
    ]);
  });

  it('7.1-63 a recorded RetryRequest whose event still blocks the session lifts the block', async () => {
    const f = withInbox();
    const e = event();
    f.session.state = { blockedByEventId: e.eventId, replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(f.inbox.recorded(control(MessageType.RetryRequest, e, { from: 'Billing' })));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.blockedBy()).toBeNull();
    expect(duplicates(f)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-64 a recorded EventRequest in a session blocked by another event is answered, not parked', async () => {
    const f = withInbox();
    f.session.state = { blockedByEventId: 'other', replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(f.inbox.recorded(event()));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.DeferralResponse)).toHaveLength(0);
    expect(f.session.parked.size).toBe(0);
    expect(duplicates(f)).toHaveLength(1);
    expect(f.session.state).toMatchObject({ blockedByEventId: 'other', deferredCount: 0 });
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-65 a failing inbox check: handler not run, message abandoned (neither completed nor dead-lettered)', async () => {
    const f = withInbox();
    f.inbox.failCheck = true;
    const e = event();
    await f.deliver(e);
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['abandon']);
    expect(f.session.published).toHaveLength(0);
    expect(f.lifecycle).toEqual([`received:${e.eventId}`, `failed:${e.eventId}`]);
  });

  it('7.1-66 a message not recorded yet is handled normally and recorded before the ResolutionResponse', async () => {
    const f = withInbox();
    const e = event();
    let recordedWhileHandling = true;
    f.handler.script = () => {
      recordedWhileHandling = f.inbox.records.has(`Billing|${e.messageId}`);
    };
    await f.deliver(e);
    expect(f.handler.calls).toHaveLength(1);
    expect(recordedWhileHandling).toBe(false);
    expect(f.inbox.records.has(`Billing|${e.messageId}`)).toBe(true);
    expect(f.session.responses().map((r) => r.messageType)).toEqual([MessageType.ResolutionResponse]);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-67 a recorded RetryRequest in an open session with 2 parked messages replays them (adapted: in-session replay instead of ProcessDeferredRequest)', async () => {
    const f = withInbox();
    f.session.parked.set(1, f.session.deliver(event({ eventId: 'p1' })));
    f.session.parked.set(2, f.session.deliver(event({ eventId: 'p2' })));
    f.session.state = { blockedByEventId: null, replaying: false, nextSequence: 3, deferredCount: 2 };
    await f.deliver(f.inbox.recorded(control(MessageType.RetryRequest, event(), { from: 'Billing' })));
    expect(f.handler.handledEventIds).toEqual(['p1', 'p2']);
    expect(duplicates(f)).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(2);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.state).toMatchObject({ blockedByEventId: null, replaying: false, deferredCount: 0 });
  });

  it('7.1-68 (adapted: a line longer than the replay budget) the duplicate hands the rest over with a ContinuationRequest', async () => {
    const f = withInbox({ maxReplayPerSettlement: 1 });
    f.session.parked.set(1, f.session.deliver(event({ eventId: 'p1' })));
    f.session.parked.set(2, f.session.deliver(event({ eventId: 'p2' })));
    f.session.state = { blockedByEventId: null, replaying: false, nextSequence: 3, deferredCount: 2 };
    await f.deliver(f.inbox.recorded(control(MessageType.RetryRequest, event(), { from: 'Billing' })));
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(f.session.responses(MessageType.ContinuationRequest)).toHaveLength(1);
    expect(duplicates(f)).toHaveLength(1);
  });

  it('7.1-69 a recorded RetryRequest while another event blocks: no unblock, no replay', async () => {
    const f = withInbox();
    f.session.parked.set(1, f.session.deliver(event({ eventId: 'p1' })));
    f.session.parked.set(2, f.session.deliver(event({ eventId: 'p2' })));
    f.session.state = { blockedByEventId: 'other', replaying: false, nextSequence: 3, deferredCount: 2 };
    await f.deliver(f.inbox.recorded(control(MessageType.RetryRequest, event(), { from: 'Billing' })));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.parked.size).toBe(2);
    expect(f.session.state).toMatchObject({ blockedByEventId: 'other', deferredCount: 2 });
    expect(f.session.responses().map((r) => r.messageType)).toEqual([MessageType.SkipResponse]);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.1-70 a recorded ResubmissionRequest (1 parked): handler not run, duplicate, no resolution of it, parked line replayed', async () => {
    const f = withInbox();
    const e = event();
    f.session.parked.set(1, f.session.deliver(event({ eventId: 'p1' })));
    f.session.state = {
      blockedByEventId: null,
      replaying: false,
      nextSequence: 2,
      deferredCount: 1,
      awaitingOperator: [e.eventId],
    };
    await f.deliver(
      f.inbox.recorded(control(MessageType.ResubmissionRequest, e, { acknowledgeOutOfOrder: true })),
    );
    expect(f.handler.handledEventIds).toEqual(['p1']);
    expect(duplicates(f)).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse).map((r) => r.eventId)).toEqual(['p1']);
    expect(f.session.parked.size).toBe(0);
  });
});

describe('engine: inbox record and failures', () => {
  it('a failing record after the handler: handler ran once, no resolution, message abandoned', async () => {
    const f = withInbox();
    f.inbox.failRecord = true;
    await f.deliver(event());
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['abandon']);
    expect(f.session.published).toHaveLength(0);
  });

  it('inbox failures are transient errors carrying the store error as cause', async () => {
    const failures: unknown[] = [];
    const f = withInbox({
      observers: [{ onMessageFailed: (_c, error) => void failures.push(error) }],
    });
    f.inbox.failCheck = true;
    await f.deliver(event());
    expect(failures[0]).toBeInstanceOf(TransientError);
    expect((failures[0] as Error).name).toBe('InboxUnavailableError');
    expect(((failures[0] as Error).cause as Error).message).toBe('inbox store down');
  });

  it('failures and handoffs are not recorded, so a redelivery runs the handler again', async () => {
    const f = withInbox();
    const failing = event();
    f.handler.script = () => {
      throw new Error('boom');
    };
    await f.deliver(failing);
    expect(f.inbox.records.size).toBe(0);
    const handedOff = event({ sessionId: 'session-2' });
    f.handler.script = (c) => c.markPendingHandoff({ reason: 'external job' });
    await f.deliver(handedOff);
    expect(f.inbox.records.size).toBe(0);
  });

  it('a successful retry is recorded; a second copy of it is a duplicate that only unblocks nothing', async () => {
    const f = withInbox();
    const e = event();
    f.session.state = { blockedByEventId: e.eventId, replaying: false, nextSequence: 1, deferredCount: 0 };
    const retry = control(MessageType.RetryRequest, e, { from: 'Billing' });
    await f.deliver(retry);
    await f.deliver(retry);
    expect(f.handler.calls).toHaveLength(1);
    expect(f.session.responses().map((r) => r.messageType)).toEqual([
      MessageType.ResolutionResponse,
      MessageType.SkipResponse,
    ]);
  });

  it('heartbeats and unauthorised resubmissions never consult the inbox', async () => {
    const f = withInbox();
    await f.deliver(event({ eventTypeId: 'NimBus.Platform.Heartbeat' }));
    await f.deliver(control(MessageType.ResubmissionRequest, event(), { from: 'Intruder' }));
    expect(f.inbox.checks).toEqual([]);
    expect(f.session.settlements.map((s) => s.kind)).toEqual(['complete', 'deadLetter']);
  });

  it('a replayed parked message that was already handled is answered as a duplicate', async () => {
    const f = withInbox();
    const parked = f.inbox.recorded(event({ eventId: 'p1' }));
    f.session.parked.set(1, f.session.deliver(parked));
    f.session.state = { blockedByEventId: null, replaying: true, nextSequence: 2, deferredCount: 1 };
    await f.deliver(event({ eventId: 'new' }));
    expect(f.handler.handledEventIds).toEqual(['new']);
    expect(duplicates(f).map((r) => r.eventId)).toEqual(['p1']);
    expect(f.session.parked.size).toBe(0);
  });

  it('a blank message id bypasses deduplication: handled, not recorded', async () => {
    const f = withInbox();
    const blank = { ...event(), messageId: ' ' };
    await f.deliver(blank);
    await f.deliver(blank);
    expect(f.handler.calls).toHaveLength(2);
    expect(f.inbox.records.size).toBe(0);
  });

  it('an inbox duplicate is reported to observers as onDuplicateDetected before onMessageCompleted, with the endpoint id', async () => {
    const seen: string[] = [];
    const inbox = new SetInbox();
    const f = {
      inbox,
      ...setup({
        extra: { inbox },
        observers: [
          { onDuplicateDetected: (c) => void seen.push(`duplicate ${c.messageId} at ${c.endpointId}`) },
        ],
      }),
    };
    const e = f.inbox.recorded(event());
    await f.deliver(e);
    await f.deliver(event({ sessionId: 'session-2' }));
    expect(seen).toEqual([`duplicate ${e.messageId} at Billing`]);
    expect(f.lifecycle.slice(0, 3)).toEqual([
      `received:${e.eventId}`,
      `duplicate:${e.eventId}`,
      `completed:${e.eventId}`,
    ]);
    expect(f.lifecycle.slice(3).some((l) => l.startsWith('duplicate'))).toBe(false);
  });
});
