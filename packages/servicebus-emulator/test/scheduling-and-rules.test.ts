import { isServiceBusError } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support.js';

describe('emulator scheduling, peek, rules, limits', () => {
  const ctx = useEmulator();

  it('schedules and cancels messages (8-byte sequence numbers), and holds back a delayed send', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    const sender = ctx.client.createSender('t');
    const receiver = ctx.client.createReceiver('t', 's');
    // Open the connection and every link first, so the wait below is measured from the schedule.
    await receiver.receiveMessages(1, { maxWaitTimeInMs: 10 });
    await sender.sendMessages([]);
    await sender.cancelScheduledMessages([]);
    const at = new Date(Date.now() + 600);
    const [kept, cancelled] = await sender.scheduleMessages([{ body: 'kept' }, { body: 'cancelled' }], at);
    await sender.cancelScheduledMessages(cancelled!);
    await sender.sendMessages({ body: 'delayed', scheduledEnqueueTimeUtc: at });
    const missing = await sender.cancelScheduledMessages(cancelled!).catch((e: unknown) => e);
    expect(isServiceBusError(missing) && missing.code).toBe('MessageNotFound');
    expect(kept!.toNumber()).toBeGreaterThan(0);
    expect(await receiver.receiveMessages(5, { maxWaitTimeInMs: 100 })).toEqual([]);
    await new Promise((r) => setTimeout(r, at.getTime() - Date.now() + 50));
    const got = await receiver.receiveMessages(5, { maxWaitTimeInMs: 500 });
    expect(got.map((m) => m.body).sort()).toEqual(['delayed', 'kept']);
  });

  it('peeks from a sequence number without locking, and returns nothing past the end (status 204)', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    await ctx.client.createSender('t').sendMessages([{ body: 1 }, { body: 2 }, { body: 3 }]);
    const receiver = ctx.client.createReceiver('t', 's');
    const all = await receiver.peekMessages(10);
    expect(all.map((m) => m.body)).toEqual([1, 2, 3]);
    const fromSecond = await receiver.peekMessages(10, { fromSequenceNumber: all[1]!.sequenceNumber! });
    expect(fromSecond.map((m) => m.body)).toEqual([2, 3]);
    expect(await receiver.peekMessages(10)).toEqual([]);
    const [locked] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 500 });
    expect(locked!.deliveryCount).toBe(0);
  });

  it('routes by SQL and correlation filters and applies SET actions per subscription', async () => {
    const ns = ctx.emulator.namespace;
    ns.createTopic('Crm');
    const erp = ns.createSubscription('Crm', 'Erp');
    erp.removeRule('$Default');
    erp.addRule({
      name: 'changed',
      filter: {
        type: 'sql',
        expression:
          "EventTypeId IN ('CustomerChanged', 'CustomerCreated') AND sys.Label LIKE 'cust%' AND NOT EXISTS(From)",
      },
      action: "SET user.To = 'Erp'; SET From = 'Crm'; SET sys.CorrelationId = 'c-' + EventTypeId",
    });
    const billing = ns.createSubscription('Crm', 'Billing');
    billing.removeRule('$Default');
    billing.addRule({
      name: 'corr',
      filter: { type: 'correlation', subject: 'invoice', properties: { Amount: 10 } },
    });
    const sender = ctx.client.createSender('Crm');
    await sender.sendMessages([
      { body: 'a', subject: 'customer', applicationProperties: { EventTypeId: 'CustomerChanged' } },
      {
        body: 'b',
        subject: 'customer',
        applicationProperties: { EventTypeId: 'CustomerChanged', From: 'X' },
      },
      { body: 'c', subject: 'invoice', applicationProperties: { Amount: 10 } },
      { body: 'd', subject: 'invoice', applicationProperties: { Amount: 11 } },
    ]);
    const erpMessages = await ctx.client.createReceiver('Crm', 'Erp').peekMessages(10);
    expect(erpMessages.map((m) => m.body)).toEqual(['a']);
    const [a] = erpMessages;
    expect(a).toMatchObject({ body: 'a', correlationId: 'c-CustomerChanged' });
    expect(a!.applicationProperties).toMatchObject({ To: 'Erp', From: 'Crm' });
    expect((await ctx.client.createReceiver('Crm', 'Billing').peekMessages(10)).map((m) => m.body)).toEqual([
      'c',
    ]);
  });

  it('adds and removes rules through the SDK rule manager', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    const rules = ctx.client.createRuleManager('t', 's');
    await rules.deleteRule('$Default');
    await rules.createRule('big', { sqlExpression: 'size > 5' }, { sqlExpression: "SET tag = 'big'" });
    await ctx.client.createSender('t').sendMessages([
      { body: 1, applicationProperties: { size: 1 } },
      { body: 2, applicationProperties: { size: 9 } },
    ]);
    const peeked = await ctx.client.createReceiver('t', 's').peekMessages(5);
    expect(peeked.map((m) => [m.body, m.applicationProperties?.tag])).toEqual([[2, 'big']]);
    const bad = await rules.createRule('broken', { sqlExpression: 'size >' }).catch((e: unknown) => e);
    expect(String((bad as Error).message)).toMatch(/invalid SQL rule expression/);
  });

  it('refuses sends beyond its memory budget with QuotaExceeded, keeping what it holds', async () => {
    await ctx.emulator.stop();
    const { startEmulator } = await import('../src/index.js');
    ctx.emulator = await startEmulator({ port: 0, maxMessages: 3 });
    const { ServiceBusClient } = await import('@azure/service-bus');
    await ctx.client.close();
    ctx.client = new ServiceBusClient(ctx.emulator.connectionString, { retryOptions: { maxRetries: 0 } });
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    const sender = ctx.client.createSender('t');
    await sender.sendMessages([{ body: 1 }, { body: 2 }]);
    const refused = await sender.sendMessages([{ body: 3 }, { body: 4 }]).catch((e: unknown) => e);
    expect(isServiceBusError(refused) && refused.code).toBe('QuotaExceeded');
    expect((await ctx.client.createReceiver('t', 's').peekMessages(10)).map((m) => m.body)).toEqual([1, 2]);
  });

  it('fails loudly on what it does not implement, and on unknown entities', async () => {
    ctx.emulator.namespace.createTopic('t');
    const queue = await ctx.client
      .createSender('no-such-topic')
      .sendMessages({ body: 1 })
      .catch((e: unknown) => e);
    expect(isServiceBusError(queue) && queue.code).toBe('MessagingEntityNotFound');
    const receiver = ctx.client.createReceiver('t', 'missing');
    const missing = await receiver.receiveMessages(1, { maxWaitTimeInMs: 200 }).catch((e: unknown) => e);
    expect(isServiceBusError(missing) && missing.code).toBe('MessagingEntityNotFound');
  });
});
