import { Header, MessageType, uuidv7 } from '@nimbus/core';
import { startEmulator } from '@nimbus/servicebus-emulator';
import { expect, it } from 'vitest';
import { ServiceBusTransport } from '../src/index.js';
import { startLatencyProxy } from './support/latency-proxy.js';

const event = (sessionId: string, n: number) => ({
  messageId: uuidv7(),
  sessionId,
  correlationId: sessionId,
  headers: {
    [Header.To]: 'CustomerChanged',
    [Header.EventTypeId]: 'CustomerChanged',
    [Header.MessageType]: MessageType.EventRequest,
  },
  body: JSON.stringify({ n }),
});

// The SDK (7.9) closes a receiver whose drain is not answered within 200 ms, and with it the session lease; the
// broker then hands the messages in hand to the next holder without counting a delivery (seen under load as
// "session lock has expired" on complete and as duplicate responses). Here every broker answer is 300 ms late.
it('a receive whose drain is answered late keeps its session: the messages in hand settle, none comes back', {
  timeout: 60_000,
}, async () => {
  const emulator = await startEmulator({ port: 0 });
  const proxy = await startLatencyProxy(emulator.port);
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString.replace(`:${emulator.port};`, `:${proxy.port};`),
    managementCa: emulator.caPem!,
    lockDurationMs: 5_000,
  });
  try {
    await transport.applyTopology({
      endpoints: ['Crm', 'Erp'],
      routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
    });
    await transport.publish([{ source: 'Crm', messages: [event('s1', 1), event('s1', 2)] }]);
    const session = await transport.acceptSession('Erp', { sessionId: 's1', waitMs: 5_000 });
    expect(session).not.toBeNull();

    proxy.replyDelayMs = 300;
    // Ten asked, two there: the receive ends with a drain of the eight left, answered 300 ms later.
    const received = [...(await session!.receive({ max: 10, waitMs: 1_000 }))];
    for (let round = 0; round < 5 && received.length < 2; round++) {
      received.push(...(await session!.receive({ max: 10 - received.length, waitMs: 1_000 })));
    }
    expect(received.map((m) => JSON.parse(m.body).n)).toEqual([1, 2]);
    for (const message of received) await session!.complete(message);
    await session!.release();

    proxy.replyDelayMs = 0;
    expect(await transport.acceptSession('Erp', { waitMs: 500 })).toBeNull();
    expect((await transport.counts('Erp')).active).toBe(0);
  } finally {
    proxy.replyDelayMs = 0;
    await transport.close();
    await proxy.close();
    await emulator.stop();
  }
});
