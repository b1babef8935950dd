import { Header, uuidv7 } from '@nimbus/core';
import { expect, it } from 'vitest';
import { emulatedTransport } from './fixtures.js';

// NimBus's dead-letter notice to the Resolver carries the headers DeadLetterReason and DeadLetterErrorDescription,
// the names the broker stamps on a message it dead-letters. They were dropped from every received message, so the
// Resolver showed a dead-lettered event as Failed (found by the Resolver end-to-end suite on this transport).
it('keeps DeadLetterReason/DeadLetterErrorDescription headers of a live message; a dead-lettered copy shows the broker reason only', async () => {
  const { transport, cleanup } = await emulatedTransport();
  try {
    await transport.applyTopology({ endpoints: ['Erp'], routes: [] });
    const headers = {
      [Header.To]: 'Erp',
      [Header.DeadLetterReason]: 'PermanentFailure',
      [Header.DeadLetterErrorDescription]: 'customer has no account number',
    };
    await transport.publish([
      {
        source: 'Erp',
        messages: [{ messageId: uuidv7(), sessionId: 's', correlationId: null, headers, body: '{}' }],
      },
    ]);
    const session = await transport.acceptSession('Erp', { sessionId: 's', waitMs: 5_000 });
    const [received] = (await session?.receive({ max: 1, waitMs: 1_000 })) ?? [];
    expect(received?.headers).toMatchObject(headers);

    await session!.deadLetter(received!, { reason: 'BrokerReason', description: 'broker description' });
    await session!.release();
    const [dead] = await transport.peekDeadLetters('Erp');
    expect(dead).toMatchObject({ reason: 'BrokerReason', description: 'broker description' });
    expect(dead!.headers[Header.DeadLetterReason]).toBeUndefined();
    expect(dead!.headers[Header.DeadLetterErrorDescription]).toBeUndefined();
  } finally {
    await cleanup();
  }
});
