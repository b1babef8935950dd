import { defineEndpoint, defineEvent, definePlatform, MessageType } from '@nimbus/core';
import { createSubscriber, pendingHandoffHandler } from '@nimbus/sdk';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createTestBus } from '../src/index.js';

// The class-less events example quoted in docs/sdk.md and docs/testing-adapters.md.
it('docs: class-less events reach dynamic and fallback handlers as raw JSON', async () => {
  // docs:start platform
  // Class-less types are declared (so they are routed) but carry no payload schema.
  const ContactEnriched = defineEvent('crm.contact.enriched.v1', { schema: z.unknown() });
  const LeadScored = defineEvent('crm.lead.scored.v1', { schema: z.unknown() });
  const TicketOpened = defineEvent('support.ticket.opened.v1', { schema: z.unknown() });
  const Agent = defineEndpoint('Agent', { produces: [ContactEnriched, LeadScored, TicketOpened] });
  const Crm = defineEndpoint('Crm', { consumes: [ContactEnriched, LeadScored, TicketOpened] });
  const platform = definePlatform([Agent, Crm]);
  // docs:end platform

  const bus = createTestBus({ platform });
  const enriched: string[] = [];
  const unrouted: string[] = [];
  // docs:start subscriber
  const subscriber = createSubscriber()
    .onDynamic('crm.contact.enriched.v1', (eventJson, context) => {
      const contact = JSON.parse(eventJson) as { contactId: string; rationale: string | null };
      enriched.push(`${context.eventTypeId}: ${contact.contactId}`);
    })
    // An external agent picks these up; settle them later with the HandoffClient.
    .onDynamic('crm.lead.scored.v1', pendingHandoffHandler('Awaiting agent pickup'))
    // Every other id; without a fallback it would get an UnsupportedResponse.
    .onFallback((eventJson, context) => void unrouted.push(`${context.eventTypeId} ${eventJson}`));
  // docs:end subscriber
  bus.endpoint('Crm', { subscriber });

  // docs:start publish
  const agent = bus.publisher('Agent');
  await agent.publishRaw('crm.contact.enriched.v1', '{"contactId":"c-42","rationale":null}', {
    sessionId: 'c-42',
  });
  await agent.publishRaw('crm.lead.scored.v1', '{"leadId":"l-7","score":91}');
  await agent.publishRaw('support.ticket.opened.v1', '{"ticket":1}');
  // docs:end publish
  await bus.deliverAll();

  expect(enriched).toEqual(['crm.contact.enriched.v1: c-42']);
  expect(unrouted).toEqual(['support.ticket.opened.v1 {"ticket":1}']);
  expect(bus.responses().map((r) => [r.eventTypeId, r.messageType])).toEqual(
    expect.arrayContaining([
      ['crm.contact.enriched.v1', MessageType.ResolutionResponse],
      ['crm.lead.scored.v1', MessageType.PendingHandoffResponse],
      ['support.ticket.opened.v1', MessageType.ResolutionResponse],
    ]),
  );
});
