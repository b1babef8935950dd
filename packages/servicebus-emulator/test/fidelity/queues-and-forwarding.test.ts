import https from 'node:https';
import { ServiceBusAdministrationClient } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../support.js';

describe('queues, ForwardTo and the health endpoint with the unmodified clients', () => {
  const ctx = useEmulator();
  const admin = () =>
    new ServiceBusAdministrationClient(ctx.emulator.connectionString, {
      tlsOptions: { ca: ctx.emulator.caPem! },
      retryOptions: { maxRetries: 0 },
    } as never);

  it('a queue: create, send, peek-lock, dead-letter, defer and receive deferred, runtime counts', async () => {
    const client = admin();
    await client.createQueue('orders', { maxDeliveryCount: 3, lockDuration: 'PT30S' });
    expect(await client.queueExists('orders')).toBe(true);
    const names = [];
    for await (const q of client.listQueues()) names.push(q.name);
    expect(names).toEqual(['orders']);
    await ctx.client.createSender('orders').sendMessages([{ body: 'a' }, { body: 'b' }, { body: 'c' }]);
    const receiver = ctx.client.createReceiver('orders');
    const [a, b, c] = await receiver.receiveMessages(3, { maxWaitTimeInMs: 2_000 });
    await receiver.completeMessage(a!);
    await receiver.deadLetterMessage(b!, { deadLetterReason: 'Bad', deadLetterErrorDescription: 'no' });
    await receiver.deferMessage(c!);
    const [deferred] = await receiver.receiveDeferredMessages(c!.sequenceNumber!);
    expect(deferred?.body).toBe('c');
    await receiver.completeMessage(deferred!);
    const [dead] = await ctx.client
      .createReceiver('orders', { subQueueType: 'deadLetter' })
      .receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    expect(dead).toMatchObject({ body: 'b', deadLetterReason: 'Bad', deadLetterSource: 'orders' });
    const runtime = await client.getQueueRuntimeProperties('orders');
    expect(runtime).toMatchObject({ activeMessageCount: 0, deadLetterMessageCount: 1 });
    expect(await client.getQueue('orders')).toMatchObject({ maxDeliveryCount: 3, lockDuration: 'PT30S' });
    await client.deleteQueue('orders');
    expect(await client.queueExists('orders')).toBe(false);
  });

  it('a session queue: FIFO per session, state, and a session-less send refused', async () => {
    await admin().createQueue('q', { requiresSession: true });
    const sender = ctx.client.createSender('q');
    await sender.sendMessages([
      { body: 1, sessionId: 'x' },
      { body: 2, sessionId: 'y' },
      { body: 3, sessionId: 'x' },
    ]);
    await expect(sender.sendMessages({ body: 'none' })).rejects.toThrow(/requires sessions/);
    const session = await ctx.client.acceptSession('q', 'x');
    await session.setSessionState('seen');
    expect((await session.receiveMessages(5, { maxWaitTimeInMs: 1_000 })).map((m) => m.body)).toEqual([1, 3]);
    expect(String(await session.getSessionState())).toBe('seen');
  });

  it('ForwardTo: a subscription forwards to a queue, the queue to a topic; the target must exist', async () => {
    const client = admin();
    await client.createTopic('in');
    await client.createTopic('out');
    await client.createSubscription('out', 'final');
    await client.createQueue('hop', { forwardTo: 'out' });
    await client.createSubscription('in', 'forwarder', { forwardTo: 'hop' });
    expect((await client.getSubscription('in', 'forwarder')).forwardTo).toMatch(/hop$/);
    await ctx.client.createSender('in').sendMessages({ body: 'travels', messageId: 'm-1' });
    const [arrived] = await ctx.client
      .createReceiver('out', 'final', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(1, { maxWaitTimeInMs: 2_000 });
    expect(arrived).toMatchObject({ body: 'travels', messageId: 'm-1' });
    expect((await client.getQueueRuntimeProperties('hop')).activeMessageCount).toBe(0);
    await expect(client.createQueue('lost', { forwardTo: 'nowhere' })).rejects.toThrow(
      /'nowhere' could not be found/,
    );
  });

  it('serves GET /health over plain http and https on the emulator port', async () => {
    const plain = await fetch(`http://127.0.0.1:${ctx.emulator.port}/health`);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({ status: 'ok', tier: 'standard', topics: 0, queues: 0 });
    expect((await fetch(`http://127.0.0.1:${ctx.emulator.port}/nope`)).status).toBe(404);
    // The AMQP side still works on the same port.
    ctx.emulator.namespace.createTopic('t');
    await ctx.client.createSender('t').sendMessages({ body: 1 });
    const report = await (await fetch(`http://127.0.0.1:${ctx.emulator.port}/health`)).json();
    expect(report).toMatchObject({ topics: 1, connections: 1 });
    const secure = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      https
        .get(`https://127.0.0.1:${ctx.emulator.port}/health`, { ca: ctx.emulator.caPem! }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        })
        .on('error', reject);
    });
    expect(secure.status).toBe(200);
    expect(JSON.parse(secure.body)).toMatchObject({ status: 'ok', topics: 1 });
  });
});
