import { describe, expect, it } from 'vitest';
import { useEmulator } from '../support.js';

describe('rules over AMQP with the unmodified ServiceBusRuleManager', () => {
  const ctx = useEmulator();

  it('lists rules, adds a correlation rule with properties, and the rule routes', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    const rules = ctx.client.createRuleManager('t', 's');
    await rules.deleteRule('$Default');
    await rules.createRule('by-type', {
      correlationId: 'c-1',
      subject: 'OrderPlaced',
      applicationProperties: { EventTypeId: 'OrderPlaced', Weight: 3 },
    });
    await rules.createRule(
      'sql',
      { sqlExpression: "Region = 'EU'" },
      { sqlExpression: "SET Routed = 'yes'" },
    );
    const listed = [];
    for await (const rule of rules.listRules()) listed.push(rule);
    expect(listed.map((r) => r.name)).toEqual(['by-type', 'sql']);
    expect(listed[0]?.filter).toMatchObject({
      correlationId: 'c-1',
      subject: 'OrderPlaced',
      applicationProperties: { EventTypeId: 'OrderPlaced', Weight: 3 },
    });
    expect(listed[1]).toMatchObject({
      filter: { sqlExpression: "Region = 'EU'" },
      action: { sqlExpression: "SET Routed = 'yes'" },
    });
    const sender = ctx.client.createSender('t');
    await sender.sendMessages([
      {
        body: 'hit',
        correlationId: 'c-1',
        subject: 'OrderPlaced',
        applicationProperties: { EventTypeId: 'OrderPlaced', Weight: 3 },
      },
      {
        body: 'miss',
        correlationId: 'c-1',
        subject: 'OrderPlaced',
        applicationProperties: { EventTypeId: 'Other', Weight: 3 },
      },
    ]);
    const received = await ctx.client
      .createReceiver('t', 's', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(5, { maxWaitTimeInMs: 2_000 });
    expect(received.map((m) => m.body)).toEqual(['hit']);
  });

  it('one copy for the matching rules without an action, one more per matching rule with an action', async () => {
    ctx.emulator.namespace.createTopic('t');
    ctx.emulator.namespace.createSubscription('t', 's');
    const rules = ctx.client.createRuleManager('t', 's');
    await rules.createRule('plain', { sqlExpression: '1=1' });
    await rules.createRule('eu', { sqlExpression: "Region = 'EU'" }, { sqlExpression: "SET Desk = 'eu'" });
    await rules.createRule('big', { sqlExpression: 'Amount > 10' }, { sqlExpression: "SET Desk = 'big'" });
    await ctx.client
      .createSender('t')
      .sendMessages({ body: 'x', applicationProperties: { Region: 'EU', Amount: 50 } });
    const received = await ctx.client
      .createReceiver('t', 's', { receiveMode: 'receiveAndDelete' })
      .receiveMessages(10, { maxWaitTimeInMs: 2_000 });
    const desks = received.map(
      (m) => `${m.applicationProperties?.RuleName ?? '-'}:${m.applicationProperties?.Desk ?? '-'}`,
    );
    expect(desks.sort()).toEqual(['-:-', 'big:big', 'eu:eu']);
  });
});
