import { describe, expect, it } from 'vitest';
import {
  createEnvelope,
  decodeEnvelope,
  encodeEnvelope,
  Header,
  InvalidMessageError,
  MessageType,
  type TransportMessage,
} from '../../src/index.js';

const envelope = createEnvelope({
  messageId: 'm-1',
  to: 'Erp',
  from: 'Crm',
  sessionId: 's-1',
  correlationId: 'c-1',
  messageType: MessageType.EventRequest,
  eventId: 'e-1',
  retryCount: 2,
  expectedBy: new Date('2026-01-02T03:04:05.000Z'),
  handoffReason: '',
  content: {
    eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{"orderId":"o-1"}' },
    errorContent: null,
  },
});

describe('wire encoding', () => {
  it('round-trips every populated field', () => {
    const decoded = decodeEnvelope(encodeEnvelope(envelope));
    expect(decoded).toEqual({ ...envelope, eventTypeId: 'OrderPlaced', handoffReason: null });
  });

  it('writes lineage defaults and omits empty optional headers', () => {
    const wire = encodeEnvelope(envelope);
    expect(wire.headers[Header.ParentMessageId]).toBe('self');
    expect(wire.headers[Header.OriginatingMessageId]).toBe('self');
    expect(wire.headers[Header.EventTypeId]).toBe('OrderPlaced');
    expect(wire.headers).not.toHaveProperty(Header.HandoffReason);
    expect(wire.headers).not.toHaveProperty(Header.DeadLetterReason);
  });

  it('reads a non-numeric retry count and a bad date as null', () => {
    const wire = encodeEnvelope(envelope);
    const bent: TransportMessage = {
      ...wire,
      headers: { ...wire.headers, [Header.RetryCount]: 'x', [Header.ExpectedBy]: 'not a date' },
    };
    const decoded = decodeEnvelope(bent);
    expect(decoded.retryCount).toBeNull();
    expect(decoded.expectedBy).toBeNull();
  });

  it('names every missing required header and a bad body at once', () => {
    const bad: TransportMessage = {
      messageId: 'm',
      sessionId: 's',
      correlationId: null,
      headers: {},
      body: '{nope',
    };
    try {
      decodeEnvelope(bad);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidMessageError);
      const problems = (error as InvalidMessageError).problems;
      expect(problems.slice(0, 4)).toEqual([
        "missing required header 'To'",
        "missing required header 'From'",
        "missing required header 'MessageType'",
        "missing required header 'EventId'",
      ]);
      expect(problems[4]).toMatch(/^body is not valid JSON/);
    }
  });

  it('rejects an unknown message type and content of the wrong shape', () => {
    const wire = encodeEnvelope(envelope);
    expect(() =>
      decodeEnvelope({ ...wire, headers: { ...wire.headers, [Header.MessageType]: 'Bogus' } }),
    ).toThrow("unknown MessageType 'Bogus'");
    expect(() => decodeEnvelope({ ...wire, body: '{"eventContent":{"eventTypeId":1}}' })).toThrow(
      'body.eventContent must have string eventTypeId and eventJson',
    );
    expect(() => decodeEnvelope({ ...wire, body: '[]' })).toThrow('body is not a JSON object');
  });
});
