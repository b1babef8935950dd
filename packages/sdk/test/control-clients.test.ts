import { createEnvelope, MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { createHandoffClient, createOperatorClient } from '../src/index.js';
import { FakeTransport } from './fake-transport.js';

const failed = createEnvelope({
  messageId: 'err-1',
  to: 'Resolver',
  from: 'Billing',
  sessionId: 's-1',
  correlationId: 'corr-1',
  messageType: MessageType.ErrorResponse,
  eventId: 'e-1',
  eventTypeId: 'OrderPlaced',
  originatingMessageId: 'origin-0',
  content: { eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{"a":1}' }, errorContent: null },
});

// Reference §7.4 HandoffClient wire shapes and §7.5 Manager resubmit/skip wire shape, adapted.
describe('handoff client', () => {
  it('complete: To = endpoint, From = Manager, coordinates copied, result as content', async () => {
    const transport = new FakeTransport();
    await createHandoffClient(transport, 'Billing').complete(
      {
        eventId: 'e-1',
        sessionId: 's-1',
        messageId: 'm-1',
        eventTypeId: 'OrderPlaced',
        correlationId: 'c-1',
      },
      { done: true },
    );
    const [sent] = transport.sent;
    expect(transport.calls[0]?.[0]?.source).toBe('Billing');
    expect(sent).toMatchObject({
      to: 'Billing',
      from: 'Manager',
      messageType: MessageType.HandoffCompletedRequest,
      eventId: 'e-1',
      sessionId: 's-1',
      correlationId: 'c-1',
      parentMessageId: 'm-1',
      originatingMessageId: 'm-1',
    });
    expect(sent?.content.eventContent?.eventJson).toBe('{"done":true}');
  });

  it('complete without a result sends empty content; strings are sent verbatim', async () => {
    const transport = new FakeTransport();
    const client = createHandoffClient(transport, 'Billing');
    await client.complete({ eventId: 'e', sessionId: 's', messageId: 'm' });
    await client.complete({ eventId: 'e', sessionId: 's', messageId: 'm', eventTypeId: 'T' }, 'plain text');
    expect(transport.sent[0]?.content).toEqual({ eventContent: null, errorContent: null });
    expect(transport.sent[1]?.content.eventContent?.eventJson).toBe('plain text');
  });

  it('fail: error content with the operator text and type; missing coordinates are refused', async () => {
    const transport = new FakeTransport();
    const client = createHandoffClient(transport, 'Billing');
    await client.fail(
      { eventId: 'e', sessionId: 's', messageId: 'm', originatingMessageId: 'o' },
      'Job failed',
      'JobError',
    );
    expect(transport.sent[0]).toMatchObject({
      messageType: MessageType.HandoffFailedRequest,
      originatingMessageId: 'o',
    });
    expect(transport.sent[0]?.content.errorContent).toMatchObject({
      errorText: 'Job failed',
      errorType: 'JobError',
    });
    await expect(client.complete({ eventId: '', sessionId: 's', messageId: 'm' })).rejects.toThrow(/eventId/);
  });
});

describe('operator client', () => {
  it('resubmit: ResubmissionRequest to the endpoint that reported the failure, same EventId/SessionId/correlation', async () => {
    const transport = new FakeTransport();
    const sent = await createOperatorClient(transport).resubmit(failed);
    expect(transport.calls[0]?.[0]?.source).toBe('Billing');
    expect(sent).toMatchObject({
      to: 'Billing',
      from: 'Manager',
      messageType: MessageType.ResubmissionRequest,
      eventId: 'e-1',
      sessionId: 's-1',
      correlationId: 'corr-1',
      parentMessageId: 'err-1',
      originatingMessageId: 'origin-0',
    });
    expect(sent.content.eventContent).toEqual({ eventTypeId: 'OrderPlaced', eventJson: '{"a":1}' });
  });

  it('resubmit with an edited payload carries it; non-JSON edits are refused before sending', async () => {
    const transport = new FakeTransport();
    const client = createOperatorClient(transport);
    const sent = await client.resubmit(failed, { eventJson: '{"a":2}' });
    expect(sent.content.eventContent?.eventJson).toBe('{"a":2}');
    await expect(client.resubmit(failed, { eventJson: '{oops' })).rejects.toThrow();
    expect(transport.calls).toHaveLength(1);
  });

  it('skip: SkipRequest with empty content', async () => {
    const transport = new FakeTransport();
    const sent = await createOperatorClient(transport).skip(failed);
    expect(sent).toMatchObject({
      to: 'Billing',
      from: 'Manager',
      messageType: MessageType.SkipRequest,
      eventId: 'e-1',
    });
    expect(sent.content).toEqual({ eventContent: null, errorContent: null });
  });

  it('reprocessDeferred sends a ProcessDeferredRequest for the session', async () => {
    const transport = new FakeTransport();
    const sent = await createOperatorClient(transport).reprocessDeferred('Billing', 's-7');
    expect(sent).toMatchObject({
      to: 'Billing',
      from: 'Manager',
      sessionId: 's-7',
      messageType: MessageType.ProcessDeferredRequest,
    });
  });
});
