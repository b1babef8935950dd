import { describe, expect, it } from 'vitest';
import { HEARTBEAT_EVENT_TYPE_ID, MessageType } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

function probe(init: Parameters<typeof event>[0] = {}) {
  return event({
    eventTypeId: HEARTBEAT_EVENT_TYPE_ID,
    from: 'Manager',
    sessionId: 'Heartbeat',
    json: { forwardSendTime: '2026-01-01T00:00:00.000Z' },
    ...init,
  });
}

// Reference §7.2 StrictMessageHandlerHeartbeatTests.
describe('engine: heartbeat probes', () => {
  it('7.2-1 no handler is needed: one heartbeat resolution, nothing unsupported, completes', async () => {
    const f = setup();
    await f.deliver(probe());
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses()).toHaveLength(1);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.2-2 the answer carries the heartbeat type, From = probed endpoint and the timestamps', async () => {
    const f = setup();
    await f.deliver(probe());
    const [answer] = f.session.published;
    const envelope = answer?.envelope;
    expect(envelope?.eventTypeId).toBe(HEARTBEAT_EVENT_TYPE_ID);
    expect(answer?.request.messages[0]?.headers.From).toBe('Billing');
    const payload = JSON.parse(envelope?.content.eventContent?.eventJson ?? '{}');
    const now = new Date(f.clock.now()).toISOString();
    expect(payload).toMatchObject({
      forwardSendTime: '2026-01-01T00:00:00.000Z',
      forwardReceivedTime: now,
      backwardSendTime: now,
      endpoint: 'Billing',
    });
    expect(payload.sdkVersion).toMatch(/\S/);
  });

  it('7.2-3 a blank body is still answered', async () => {
    const f = setup();
    const p = probe();
    await f.deliver({
      ...p,
      content: { eventContent: { eventTypeId: HEARTBEAT_EVENT_TYPE_ID, eventJson: '' }, errorContent: null },
    });
    const payload = JSON.parse(f.session.responses()[0]?.content.eventContent?.eventJson ?? '{}');
    expect(payload.endpoint).toBe('Billing');
    expect(f.session.last?.kind).toBe('complete');
  });

  it('7.2-4 a blocked session still answers, without deferral or park', async () => {
    const f = setup();
    f.session.state = { blockedByEventId: 'other', replaying: false, nextSequence: 1, deferredCount: 0 };
    await f.deliver(probe());
    expect(f.session.responses(MessageType.DeferralResponse)).toHaveLength(0);
    expect(f.session.parked.size).toBe(0);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
  });

  it('7.2-5 (adapted: no inbox) a repeated probe is answered again and leaves no state', async () => {
    const f = setup();
    const p = probe();
    await f.deliver(p);
    await f.deliver(p);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(2);
    expect(f.session.state).toBeNull();
  });

  it('7.2-6 an upper-cased type id is answered', async () => {
    const f = setup();
    await f.deliver(probe({ eventTypeId: HEARTBEAT_EVENT_TYPE_ID.toUpperCase() }));
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
  });

  it('7.2-7 a type id only in the body is answered', async () => {
    const f = setup();
    await f.deliver({ ...probe(), eventTypeId: null });
    expect(f.handler.calls).toHaveLength(0);
    expect(f.session.responses(MessageType.ResolutionResponse)[0]?.eventTypeId).toBe(HEARTBEAT_EVENT_TYPE_ID);
  });

  it('7.2-8 a normal event takes the handler path', async () => {
    const f = setup();
    await f.deliver(event());
    expect(f.handler.calls).toHaveLength(1);
  });
});
