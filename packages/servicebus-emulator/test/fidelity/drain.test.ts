import rhea from 'rhea';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../support.js';

describe('drain', () => {
  const ctx = useEmulator();

  it('answers a drain with the drain flag when the credit is already spent (AMQP 1.0, 2.6.7)', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    await ctx.client.createSender('t').sendMessages({ body: 'x' });
    const connection = rhea
      .create_container()
      .connect({ host: '127.0.0.1', port: ctx.emulator.port, reconnect: false });
    try {
      const receiver = connection.open_receiver({
        source: { address: 't/Subscriptions/s' },
        credit_window: 0,
        autoaccept: false,
      });
      const drained = new Promise<'drained'>((resolve) =>
        receiver.once('receiver_drained', () => resolve('drained')),
      );
      receiver.once('message', () => receiver.drain_credit()); // the one credit is spent: the drain finds none
      receiver.once('receiver_open', () => receiver.add_credit(1));
      const timeout = new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 3_000));
      // Before the fix the emulator answered without the flag, and the SDK waited out its drain timeout.
      expect(await Promise.race([drained, timeout])).toBe('drained');
    } finally {
      connection.close();
    }
  });
});
