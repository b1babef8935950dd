import { describe, expect, it } from 'vitest';
import {
  decodeEnvelope,
  EventHandlerNotFoundError,
  encodeEnvelope,
  Header,
  MessageType,
  PermanentFailureError,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { control, event } from './fake-session.js';

// Issue 12.3: the engine holding the session decides whether an operator request still applies.
describe('engine: operator requests are decided by the session, not by the (lagging) store', () => {
  it('skip then resubmit of the same event: the resubmit is refused, the event never runs again and never completes', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    const b = event({ eventId: 'b' });
    f.handler.script = (c) => {
      if (c.message.eventId === 'a' || c.message.eventId === 'b') throw new Error('down');
    };
    await f.deliver(a);
    await f.deliver(control(MessageType.SkipRequest, a));
    await f.deliver(b); // a later event now blocks the session
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    expect(f.handler.handledEventIds).toEqual(['a', 'b']);
    expect(f.session.blockedBy()).toBe('b');
    const outcomesOfA = f.session.published
      .map((p) => p.envelope)
      .filter((m) => m.eventId === 'a' && m.to === 'Resolver')
      .map((m) => m.messageType);
    expect(outcomesOfA).toEqual([
      MessageType.ErrorResponse,
      MessageType.SkipResponse,
      MessageType.RefusalResponse,
    ]);
  });

  it('repeated resubmits and skips of one event act once; the others are refused and recorded', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    let fail = true;
    f.handler.script = () => {
      if (fail) throw new Error('down');
    };
    await f.deliver(a);
    fail = false;
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    await f.deliver(control(MessageType.SkipRequest, a));
    expect(f.handler.handledEventIds).toEqual(['a', 'a']);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(0);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(2);
    expect(f.session.blockedBy()).toBeNull();
  });

  it('a dead-lettered event (which blocks nothing) is not resubmitted without the out-of-order acknowledgement: refused, nothing run, it still awaits an operator', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    let poison = true;
    f.handler.script = (c) => {
      if (poison && c.message.eventId === 'a') throw new PermanentFailureError('bad data');
    };
    await f.deliver(a);
    await f.deliver(event({ eventId: 'b' })); // the session went on without 'a'
    poison = false;
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    await f.deliver(
      control(MessageType.ResubmissionRequest, a, {
        content: { eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{}' }, errorContent: null },
      }),
    );
    expect(f.handler.handledEventIds).toEqual(['a', 'b']);
    const refusals = f.session.responses(MessageType.RefusalResponse);
    expect(refusals).toHaveLength(2);
    const why = refusals[0]?.content.errorContent?.errorText ?? '';
    expect(why).toContain('dead-lettered or unsupported');
    expect(why).toContain('runs it after later events of the session');
    expect(why).toContain('confirm out-of-order');
    expect(f.session.state).toMatchObject({ blockedByEventId: null, awaitingOperator: ['a'] });
    // A skip needs no acknowledgement.
    await f.deliver(control(MessageType.SkipRequest, a));
    expect(f.session.responses(MessageType.SkipResponse)).toHaveLength(1);
    expect(f.session.state).toBeNull();
  });

  it('a dead-lettered event resubmitted with the acknowledgement runs once; a second resubmit is refused', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    let poison = true;
    f.handler.script = () => {
      if (poison) throw new PermanentFailureError('bad data');
    };
    await f.deliver(a);
    expect(f.session.last?.kind).toBe('deadLetter');
    expect(f.session.state).toMatchObject({ blockedByEventId: null, awaitingOperator: ['a'] });
    poison = false;
    const acknowledged = { acknowledgeOutOfOrder: true };
    await f.deliver(control(MessageType.ResubmissionRequest, a, acknowledged));
    await f.deliver(control(MessageType.ResubmissionRequest, a, acknowledged));
    expect(f.handler.handledEventIds).toEqual(['a', 'a']);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(1);
    expect(f.session.state).toBeNull();
  });

  it('an unsupported event resubmitted with the acknowledgement (the header on the wire) runs', async () => {
    const f = setup();
    let supported = false;
    f.handler.script = (c) => {
      if (!supported) throw new EventHandlerNotFoundError(c.message.eventTypeId);
    };
    const a = event({ eventId: 'a' });
    await f.deliver(a);
    supported = true;
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    expect(f.handler.calls).toHaveLength(1);
    const wire = encodeEnvelope(control(MessageType.ResubmissionRequest, a, { acknowledgeOutOfOrder: true }));
    expect(wire.headers[Header.AcknowledgeOutOfOrder]).toBe('true');
    await f.deliver(decodeEnvelope(wire));
    expect(f.handler.calls).toHaveLength(2);
    expect(f.session.responses(MessageType.ResolutionResponse)).toHaveLength(1);
    expect(f.session.state).toBeNull();
  });

  it('a dead-lettered event cannot be resubmitted while a later event blocks the session, even with the acknowledgement', async () => {
    const f = setup();
    f.handler.script = (c) => {
      if (c.message.eventId === 'a') throw new PermanentFailureError('bad data');
      if (c.message.eventId === 'b') throw new Error('down');
    };
    const a = event({ eventId: 'a' });
    await f.deliver(a);
    await f.deliver(event({ eventId: 'b' }));
    await f.deliver(control(MessageType.ResubmissionRequest, a, { acknowledgeOutOfOrder: true }));
    expect(f.handler.handledEventIds).toEqual(['a', 'b']);
    expect(f.session.blockedBy()).toBe('b');
    expect(f.session.responses(MessageType.RefusalResponse)[0]?.content.errorContent?.errorText).toContain(
      "while event 'b' blocks",
    );
  });

  it('the blocking event needs no acknowledgement: a plain resubmit runs it', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    let fail = true;
    f.handler.script = () => {
      if (fail) throw new Error('down');
    };
    await f.deliver(a);
    fail = false;
    await f.deliver(control(MessageType.ResubmissionRequest, a));
    expect(f.handler.handledEventIds).toEqual(['a', 'a']);
    expect(f.session.responses(MessageType.RefusalResponse)).toHaveLength(0);
    expect(f.session.blockedBy()).toBeNull();
  });

  it('a resubmitted dead-lettered event that fails again blocks its session like a first delivery', async () => {
    const f = setup();
    const a = event({ eventId: 'a' });
    let permanent = true;
    f.handler.script = () => {
      if (permanent) throw new PermanentFailureError('bad data');
      throw new Error('still down');
    };
    await f.deliver(a);
    permanent = false;
    await f.deliver(control(MessageType.ResubmissionRequest, a, { acknowledgeOutOfOrder: true }));
    expect(f.session.blockedBy()).toBe('a');
    await f.deliver(event({ eventId: 'later' }));
    expect(f.handler.handledEventIds).toEqual(['a', 'a']);
    expect(f.session.parked.size).toBe(1);
  });
});
