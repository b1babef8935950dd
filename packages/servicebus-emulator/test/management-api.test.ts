import { ServiceBusAdministrationClient } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support.js';

describe('emulator Atom management API with the unmodified ServiceBusAdministrationClient (https, generated CA)', () => {
  const ctx = useEmulator();
  const admin = () =>
    new ServiceBusAdministrationClient(ctx.emulator.connectionString, {
      tlsOptions: { ca: ctx.emulator.caPem! },
      retryOptions: { maxRetries: 0 },
    } as never);

  it('creates, gets, lists and deletes topics, subscriptions and rules; 404 and 409 map to the SDK codes', async () => {
    const client = admin();
    expect(await client.topicExists('Erp')).toBe(false);
    await client.createTopic('Erp');
    expect(await client.topicExists('Erp')).toBe(true);
    const duplicate = await client.createTopic('Erp').catch((e: unknown) => e);
    expect((duplicate as { code?: string }).code).toBe('MessageEntityAlreadyExistsError');
    const subscription = await client.createSubscription('Erp', 'Erp', {
      requiresSession: true,
      lockDuration: 'PT30S',
      maxDeliveryCount: 5,
      defaultRuleOptions: { name: 'direct', filter: { sqlExpression: "NimBusInput = 'Erp'" } },
    });
    expect(subscription).toMatchObject({
      subscriptionName: 'Erp',
      topicName: 'Erp',
      requiresSession: true,
      lockDuration: 'PT30S',
      maxDeliveryCount: 5,
    });
    await client.createRule(
      'Erp',
      'Erp',
      'route.Crm.CustomerChanged',
      {
        correlationId: 'c',
        applicationProperties: { NimBusInput: 'Erp', EventTypeId: 'CustomerChanged', Weight: 3 },
      },
      { sqlExpression: "SET Routed = 'yes'" },
    );
    const rules = [];
    for await (const rule of client.listRules('Erp', 'Erp')) rules.push(rule);
    expect(rules.map((r) => r.name).sort()).toEqual(['direct', 'route.Crm.CustomerChanged']);
    const correlation = rules.find((r) => r.name === 'route.Crm.CustomerChanged')!;
    expect(correlation.filter).toMatchObject({
      correlationId: 'c',
      applicationProperties: { NimBusInput: 'Erp', EventTypeId: 'CustomerChanged', Weight: 3 },
    });
    expect(correlation.action).toMatchObject({ sqlExpression: "SET Routed = 'yes'" });
    const topics = [];
    for await (const topic of client.listTopics()) topics.push(topic.name);
    expect(topics).toEqual(['Erp']);
    const subscriptions = [];
    for await (const s of client.listSubscriptions('Erp')) subscriptions.push(s.subscriptionName);
    expect(subscriptions).toEqual(['Erp']);
    const missing = await client.getSubscription('Erp', 'nope').catch((e: unknown) => e);
    expect((missing as { code?: string }).code).toBe('MessageEntityNotFoundError');
    await client.deleteRule('Erp', 'Erp', 'direct');
    expect(await client.ruleExists('Erp', 'Erp', 'direct')).toBe(false);
    await client.deleteSubscription('Erp', 'Erp');
    await client.deleteTopic('Erp');
    const gone = await client.deleteTopic('Erp').catch((e: unknown) => e);
    expect((gone as { code?: string }).code).toBe('MessageEntityNotFoundError');
  });

  it('reports runtime counts: active, dead-lettered and scheduled', async () => {
    const client = admin();
    await client.createTopic('t');
    await client.createSubscription('t', 's');
    const sender = ctx.client.createSender('t');
    await sender.sendMessages([{ body: 1 }, { body: 2 }, { body: 3 }]);
    await sender.scheduleMessages({ body: 'later' }, new Date(Date.now() + 60_000));
    const receiver = ctx.client.createReceiver('t', 's');
    const [first] = await receiver.receiveMessages(1, { maxWaitTimeInMs: 1_000 });
    await receiver.deadLetterMessage(first!);
    const runtime = await client.getSubscriptionRuntimeProperties('t', 's');
    expect(runtime).toMatchObject({ activeMessageCount: 2, deadLetterMessageCount: 1, totalMessageCount: 3 });
    expect((await client.getTopicRuntimeProperties('t')).scheduledMessageCount).toBe(1);
  });

  it('answers bad input with a 4xx naming the problem, never a 5xx', async () => {
    const client = admin();
    await client.createTopic('t');
    await client.createSubscription('t', 's');
    const bad = await client
      .createRule('t', 's', 'broken', { sqlExpression: "a = 'unterminated" })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ statusCode: 400 });
    expect(String((bad as Error).message)).toMatch(/unterminated string literal/);
    const forward = await client
      .createSubscription('t', 'f', { forwardTo: 'elsewhere' })
      .catch((e: unknown) => e);
    expect(String((forward as Error).message)).toMatch(/'elsewhere' could not be found/);
    expect((forward as { statusCode?: number }).statusCode).toBeLessThan(500);
  });
});
