import { createEnvelope, defineEndpoint, defineEvent, definePlatform, MessageType } from '@nimbus/core';
import { createSubscriber, pendingHandoffHandler } from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestBus } from '../src/index.js';

// Class-less event types: declared in the platform (so the topology routes them) with no payload schema,
// published as raw JSON and handled by string-keyed dynamic handlers.
const ContactEnriched = defineEvent('crm.contact.enriched.v1', { schema: z.unknown() });
const LeadScored = defineEvent('crm.lead.scored.v1', { schema: z.unknown() });
const AgentTask = defineEvent('agent.task.requested.v1', {
  schema: z.object({ taskId: z.string(), prompt: z.string() }),
  sessionKey: 'taskId',
});
const Agent = defineEndpoint('Agent', { produces: [ContactEnriched, LeadScored, AgentTask] });
const Crm = defineEndpoint('Crm', { consumes: [ContactEnriched, LeadScored, AgentTask] });
const platform = definePlatform([Agent, Crm]);

interface EnrichedContact {
  contactId: string;
  email: string;
  company: { name: string; employees: number };
  tags: string[];
  confidence: number;
  rationale: string | null;
}

const enriched = (rationale: string | null): EnrichedContact => ({
  contactId: 'c-42',
  email: 'ada@example.com',
  company: { name: 'Analytical Engines Ltd', employees: 12 },
  tags: ['vip', 'newsletter'],
  confidence: 0.87,
  rationale,
});

/** The Crm endpoint with an enriched-contact handler that parses the raw JSON it is given. */
function crmBus() {
  const bus = createTestBus({ platform });
  const parsed: EnrichedContact[] = [];
  const raw: { json: string; eventTypeId: string }[] = [];
  const subscriber = createSubscriber().onDynamic(ContactEnriched.id, (json, context) => {
    raw.push({ json, eventTypeId: context.eventTypeId });
    const value = JSON.parse(json) as EnrichedContact;
    if (typeof value.contactId !== 'string' || typeof value.confidence !== 'number') {
      throw new TypeError('not an enriched contact');
    }
    parsed.push(value);
  });
  bus.endpoint('Crm', { subscriber });
  return { bus, parsed, raw, agent: bus.publisher('Agent') };
}

describe('end to end: dynamic (class-less) events (reference 7.7-66..72)', () => {
  it('7.7-66 a class-less event reaches the string-keyed handler as raw JSON and resolves with the dynamic id', async () => {
    const { bus, raw, agent } = crmBus();
    const json = JSON.stringify(enriched('matched on domain'));
    await agent.publishRaw(ContactEnriched.id, json, { sessionId: 'c-42' });
    await bus.deliverAll();
    expect(raw).toEqual([{ json, eventTypeId: 'crm.contact.enriched.v1' }]);
    const [resolution] = bus.responses({ type: MessageType.ResolutionResponse });
    expect(resolution?.eventTypeId).toBe('crm.contact.enriched.v1');
    expect(bus.responses()).toHaveLength(1);
  });

  it('7.7-67 a class-less event nobody handles gets an UnsupportedResponse; the endpoint keeps working', async () => {
    const { bus, parsed, agent } = crmBus();
    await agent.publishRaw(LeadScored.id, '{"score":3}', { sessionId: 's-1' });
    await agent.publishRaw(ContactEnriched.id, JSON.stringify(enriched(null)), { sessionId: 's-1' });
    await bus.deliverAll();
    expect(bus.responses().map((r) => [r.eventTypeId, r.messageType])).toEqual([
      ['crm.lead.scored.v1', MessageType.UnsupportedResponse],
      ['crm.contact.enriched.v1', MessageType.ResolutionResponse],
    ]);
    expect(parsed).toHaveLength(1);
    expect(await bus.deadLetters('Crm')).toHaveLength(0);
  });

  it('7.7-68 a dynamic event parked for an agent: PendingHandoffResponse, completed, not dead-lettered', async () => {
    const bus = createTestBus({ platform });
    bus.endpoint('Crm', {
      subscriber: createSubscriber().onDynamic(LeadScored.id, pendingHandoffHandler()),
    });
    await bus.publisher('Agent').publishRaw(LeadScored.id, '{"score":9}', { sessionId: 's-9' });
    await bus.deliverAll();
    const responses = bus.responses();
    expect(responses.map((r) => r.messageType)).toEqual([MessageType.PendingHandoffResponse]);
    expect(responses[0]?.handoffReason).toBe('Awaiting agent pickup');
    expect(await bus.deadLetters('Crm')).toHaveLength(0);
    expect(await bus.transport.counts('Crm')).toMatchObject({ active: 0 });
  });

  it('7.7-69 a typed handler that parks its event for an agent: same outcome', async () => {
    const bus = createTestBus({ platform });
    bus.endpoint('Crm', {
      subscriber: createSubscriber().on(AgentTask, (_task, context) =>
        context.markPendingHandoff({ reason: 'Awaiting agent pickup', externalJobId: 'job-1' }),
      ),
    });
    await bus.publisher('Agent').publish(AgentTask, { taskId: 't-1', prompt: 'summarise' });
    await bus.deliverAll();
    const responses = bus.responses();
    expect(responses.map((r) => r.messageType)).toEqual([MessageType.PendingHandoffResponse]);
    expect(responses[0]).toMatchObject({ handoffReason: 'Awaiting agent pickup', externalJobId: 'job-1' });
    expect(await bus.deadLetters('Crm')).toHaveLength(0);
  });

  it('7.7-70 the enriched-contact handler parses every field of the raw JSON', async () => {
    const { bus, parsed, agent } = crmBus();
    await agent.publishRaw(ContactEnriched.id, JSON.stringify(enriched('matched on domain')));
    await bus.deliverAll();
    expect(parsed).toEqual([enriched('matched on domain')]);
  });

  it('7.7-71 the enriched-contact handler accepts a null rationale', async () => {
    const { bus, parsed, agent } = crmBus();
    await agent.publishRaw(ContactEnriched.id, JSON.stringify(enriched(null)));
    await bus.deliverAll();
    expect(parsed).toHaveLength(1);
    expect(parsed[0]?.rationale).toBeNull();
    expect(bus.responses({ type: MessageType.ErrorResponse })).toHaveLength(0);
  });

  it('7.7-72 the enriched-contact event settles with a ResolutionResponse carrying its payload', async () => {
    const { bus, agent } = crmBus();
    const json = JSON.stringify(enriched('x'));
    const receipt = await agent.publishRaw(ContactEnriched.id, json);
    await bus.deliverAll();
    const [resolution] = bus.responses({ type: MessageType.ResolutionResponse });
    expect(resolution?.content.eventContent).toEqual({ eventTypeId: ContactEnriched.id, eventJson: json });
    expect(resolution?.correlationId).toBe(receipt.correlationId);
    expect(bus.outcomes().get(resolution?.eventId ?? '')).toBe(MessageType.ResolutionResponse);
  });
});

describe('end to end: payloads refused before any handler', () => {
  function rawMessage(eventJson: string, bodyType = ContactEnriched.id) {
    return createEnvelope({
      messageId: `raw-${eventJson.length}-${bodyType}`,
      to: ContactEnriched.id,
      sessionId: 'c-1',
      correlationId: 'corr-raw',
      messageType: MessageType.EventRequest,
      eventTypeId: ContactEnriched.id,
      content: { eventContent: { eventTypeId: bodyType, eventJson }, errorContent: null },
    });
  }

  it.each([
    ['literal null', 'null', "The 'crm.contact.enriched.v1' payload is null."],
    ['malformed JSON', '{"contactId":', "The 'crm.contact.enriched.v1' payload is not valid JSON"],
    [
      'depth > 32',
      `${'['.repeat(33)}${']'.repeat(33)}`,
      "The 'crm.contact.enriched.v1' payload is nested deeper than 32 levels",
    ],
    [
      'header/body type mismatch',
      '{}',
      "The message header says event type 'crm.contact.enriched.v1' but its body carries 'crm.lead.scored.v1'.",
    ],
  ])(
    '7.4 EventJsonHandler (end to end): %s is dead-lettered with a readable reason; the Resolver is told',
    async (name, json, reason) => {
      const { bus, raw } = crmBus();
      const body = name === 'header/body type mismatch' ? LeadScored.id : ContactEnriched.id;
      await bus.publisher('Agent').publishMessage(rawMessage(json, body));
      await bus.deliverAll();
      expect(raw).toEqual([]);
      const [dead] = await bus.deadLetters('Crm');
      expect(dead?.reason).toContain(`Permanent failure: ${reason}`);
      const [notice] = bus.responses({ type: MessageType.ErrorResponse });
      expect(notice?.deadLetterReason).toContain(reason);
    },
  );
});
