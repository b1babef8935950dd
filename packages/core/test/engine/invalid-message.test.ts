import { describe, expect, it } from 'vitest';
import { encodeEnvelope, MessageType, uuidv7 } from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

describe('engine: unreadable messages', () => {
  it('a message without From is dead-lettered with a reason naming the header; no notification is possible', async () => {
    const f = setup();
    const received = f.session.deliver(event());
    const { From: _from, ...headers } = received.headers;
    await f.engine.handleMessage(f.session, { ...received, headers });
    const last = f.session.last;
    expect(last?.kind).toBe('deadLetter');
    expect(last?.kind === 'deadLetter' && last.reason).toBe(
      "Invalid message: missing required header 'From'",
    );
    expect(f.session.published).toHaveLength(0);
    expect(f.lifecycle.map((l) => l.split(':')[0])).toEqual(['received', 'failed', 'deadLettered']);
  });

  it('an unparsable body is dead-lettered and the Resolver is told, because From and EventId are readable', async () => {
    const f = setup();
    const received = f.session.deliver(event({ eventId: 'e-1' }));
    await f.engine.handleMessage(f.session, { ...received, body: '{not json' });
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toMatch(/^Invalid message: body is not valid JSON/);
    const [notice] = f.session.responses(MessageType.ErrorResponse);
    expect(notice).toMatchObject({ eventId: 'e-1', to: 'Resolver' });
    expect(notice?.deadLetterErrorDescription).toMatch(/body is not valid JSON/);
  });

  it('an unknown MessageType is dead-lettered naming it, and the session keeps processing', async () => {
    const f = setup();
    const received = f.session.deliver(event());
    await f.engine.handleMessage(f.session, {
      ...received,
      headers: { ...received.headers, MessageType: 'Teleport' },
    });
    const last = f.session.last;
    expect(last?.kind === 'deadLetter' && last.reason).toContain("unknown MessageType 'Teleport'");
    await f.deliver(event());
    expect(f.session.last?.kind).toBe('complete');
    expect(f.handler.calls).toHaveLength(1);
  });

  it('decoding keeps message identity: the transport message id is the envelope id', async () => {
    const f = setup();
    const e = event({ messageId: uuidv7() });
    await f.engine.handleMessage(f.session, { ...f.session.deliver(e), ...encodeEnvelope(e) });
    expect(f.handler.calls[0]?.message.messageId).toBe(e.messageId);
  });
});
