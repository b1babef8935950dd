import { describe, expect, it } from 'vitest';
import {
  type ReceivedMessage,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
} from '../../src/index.js';
import { setup } from './engine-fixture.js';
import { event } from './fake-session.js';

// Issue 12.6 at the engine: nothing about a message may make it loop without counting a delivery.
describe('engine: poison messages never loop', () => {
  it.each([
    ['null headers', null, /headers must be a JSON object of strings, got null/],
    ['a number header', { To: 'Billing', EventId: 7 }, /header 'EventId' must be a string, got a number/],
    ['an array header', { To: ['Billing'] }, /header 'To' must be a string, got an array/],
    [
      'an acknowledgement that is not a boolean',
      { To: 'Billing', AcknowledgeOutOfOrder: 'yes' },
      /header 'AcknowledgeOutOfOrder' must be 'true' or 'false', got 'yes'/,
    ],
  ])(
    '%s: dead-lettered with a reason naming the problem, never a raw TypeError',
    async (_name, headers, why) => {
      const f = setup();
      const received = f.session.deliver(event());
      await f.engine.handleMessage(f.session, { ...received, headers: headers as never });
      const last = f.session.last;
      expect(last?.kind).toBe('deadLetter');
      expect(last?.kind === 'deadLetter' && last.reason).toMatch(why);
      expect(f.handler.calls).toHaveLength(0);
    },
  );

  it('a settlement the transport refuses for good (a response too large) dead-letters the message alone', async () => {
    const f = setup();
    const tooLarge = new TransportError(
      TransportErrorCode.MessageTooLarge,
      'Publish batch of 2000000 bytes exceeds maxBatchBytes (1048576)',
    );
    const complete = f.session.complete.bind(f.session);
    f.session.complete = async (message: ReceivedMessage, effects?: SettleEffects) => {
      if ((effects?.publish?.length ?? 0) > 0) throw tooLarge;
      await complete(message, effects);
    };
    f.handler.script = () => {
      throw new Error('fails, and the error response carries the large payload');
    };
    await f.deliver(event({ eventId: 'big' }));
    const last = f.session.last;
    expect(last?.kind).toBe('deadLetter');
    expect(last?.kind === 'deadLetter' && last.reason).toBe('SettlementRefused');
    expect(last?.kind === 'deadLetter' && last.description).toContain('exceeds maxBatchBytes');
  });

  it('an unexpected failure while handling counts a delivery (abandon), so the max delivery count applies', async () => {
    const f = setup({
      observers: [
        {
          onMessageReceived: () => {
            throw new Error('observer bug');
          },
        },
      ],
    });
    const getState = f.session.getState.bind(f.session);
    f.session.getState = async () => {
      throw new RangeError('state store exploded');
    };
    await expect(f.deliver(event())).rejects.toThrow('state store exploded');
    expect(f.session.last?.kind).toBe('abandon');
    f.session.getState = getState;
  });
});
