import { encodeEnvelope, Header, MessageType, RESOLVER_INPUT } from '@nimbus/core';
import { EndpointRole, HANDOFF_SUB_STATUS, MessageAuditType, ResolutionStatus } from '@nimbus/message-store';
import { determineEndpoint, resultingStatus, UnmappedMessageTypeError } from '@nimbus/resolver';
import { describe, expect, it } from 'vitest';
import { createHarness } from './support/harness.js';
import { eventRequest, managerRequest, responseTo } from './support/messages.js';

describe('determineEndpoint', () => {
  it('uses To for requests and From for responses, always as Subscriber', () => {
    const request = eventRequest({ to: 'Billing', from: 'Crm' });
    expect(determineEndpoint(request)).toEqual({ endpointId: 'Billing', role: EndpointRole.Subscriber });
    const response = responseTo(request, MessageType.ResolutionResponse, { from: 'Billing' });
    expect(determineEndpoint(response)).toEqual({ endpointId: 'Billing', role: EndpointRole.Subscriber });
    const retry = managerRequest(request, MessageType.RetryRequest, { from: 'Retry' });
    expect(determineEndpoint(retry).endpointId).toBe('Billing');
  });
});

describe('Resolver projection of requests and outcomes', () => {
  it('stores the history record and a Pending row for the addressee of an EventRequest, then completes it', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(request);
    expect(await h.drain()).toBe(1);

    const row = await h.memoryStore.getEventInStatus({
      key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
      status: ResolutionStatus.Pending,
    });
    expect(row).toMatchObject({
      resolutionStatus: ResolutionStatus.Pending,
      endpointId: 'Billing',
      endpointRole: EndpointRole.Subscriber,
      lastMessageId: request.messageId,
      messageType: MessageType.EventRequest,
      eventTypeId: request.eventTypeId,
      from: 'Crm',
      to: 'Billing',
    });
    const history = await h.memoryStore.getEventHistory(request.eventId!);
    expect(history.map((m) => m.messageId)).toEqual([request.messageId]);
    expect(history[0]).toMatchObject({ endpointId: 'Billing', messageType: MessageType.EventRequest });
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
      active: 0,
      scheduled: 0,
      deadLettered: 0,
    });
    expect(h.changes).toEqual([{ kind: 'endpoint', endpointId: 'Billing' }]);
  });

  it('keeps a dotted dynamic event type id and moves Pending to Completed', async () => {
    const h = await createHarness();
    const request = eventRequest({ eventTypeId: 'Agents.Orders.Placed.v2' });
    await h.send(request);
    await h.send(responseTo(request, MessageType.ResolutionResponse));
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row).toMatchObject({
      resolutionStatus: ResolutionStatus.Completed,
      eventTypeId: 'Agents.Orders.Placed.v2',
    });
    const history = await h.memoryStore.getEventHistory(request.eventId!);
    expect(history.map((m) => [m.messageType, m.eventTypeId])).toEqual([
      [MessageType.EventRequest, 'Agents.Orders.Placed.v2'],
      [MessageType.ResolutionResponse, 'Agents.Orders.Placed.v2'],
    ]);
  });

  it('persists the CloudEvent identity of a response on the row and the history record', async () => {
    const h = await createHarness();
    const request = eventRequest();
    const wire = encodeEnvelope(responseTo(request, MessageType.ResolutionResponse));
    await h.send({
      ...wire,
      headers: {
        ...wire.headers,
        [Header.CloudEventId]: 'ce-1',
        [Header.CloudEventSource]: 'urn:crm',
        [Header.CloudEventType]: 'crm.customer.changed',
        [Header.CloudEventSubject]: 'customer/1',
      },
    });
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    const cloud = {
      cloudEventId: 'ce-1',
      cloudEventSource: 'urn:crm',
      cloudEventType: 'crm.customer.changed',
      cloudEventSubject: 'customer/1',
    };
    expect(row).toMatchObject({ resolutionStatus: ResolutionStatus.Completed, ...cloud });
    expect((await h.memoryStore.getEventHistory(request.eventId!))[0]).toMatchObject(cloud);
  });

  it('leaves the CloudEvent identity null for a native response', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(responseTo(request, MessageType.ResolutionResponse));
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row).toMatchObject({
      cloudEventId: null,
      cloudEventSource: null,
      cloudEventType: null,
      cloudEventSubject: null,
    });
  });

  it.each([
    ['Processing failed: Classified as Discard by PoisonClassifier.', 'PoisonError'],
    ['DuplicateDetected', null],
  ])('records a SkipResponse as Skipped with the error text as reason (%s)', async (text, type) => {
    const h = await createHarness();
    const request = eventRequest();
    const skip = responseTo(request, MessageType.SkipResponse, {
      content: {
        eventContent: request.content.eventContent,
        errorContent: { errorText: text, errorType: type, exceptionStackTrace: null, exceptionSource: null },
      },
    });
    await h.send(skip);
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row).toMatchObject({ resolutionStatus: ResolutionStatus.Skipped, reason: text });
    expect(row?.messageContent.errorContent?.errorType).toBe(type);
  });

  it.each([
    [MessageType.ErrorResponse, ResolutionStatus.Failed],
    [MessageType.DeferralResponse, ResolutionStatus.Deferred],
    [MessageType.UnsupportedResponse, ResolutionStatus.Unsupported],
    [MessageType.SkipResponse, ResolutionStatus.Skipped],
    [MessageType.ResolutionResponse, ResolutionStatus.Completed],
  ])('maps %s to %s for the endpoint in From', async (type, status) => {
    const h = await createHarness();
    const request = eventRequest({ to: 'Erp' });
    await h.send(responseTo(request, type));
    await h.drain();
    expect(await h.memoryStore.getEvent({ endpointId: 'Erp', eventId: request.eventId! })).toMatchObject({
      resolutionStatus: status,
    });
    expect(await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! })).toBeNull();
  });

  it('records a dead-letter notification as DeadLettered with its description as reason', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(
      responseTo(request, MessageType.ErrorResponse, {
        deadLetterReason: 'Permanent failure',
        deadLetterErrorDescription: 'PermanentFailureError: customer id is not a number',
      }),
    );
    await h.drain();
    expect(
      await h.memoryStore.getEventInStatus({
        key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
        status: ResolutionStatus.DeadLettered,
      }),
    ).toMatchObject({
      resolutionStatus: ResolutionStatus.DeadLettered,
      deadLetterReason: 'Permanent failure',
      reason: 'PermanentFailureError: customer id is not a number',
    });
  });

  it('writes one Retry audit before the Pending row of a RetryRequest, and not again on a repeat', async () => {
    const h = await createHarness();
    const request = eventRequest();
    const retry = managerRequest(request, MessageType.RetryRequest, { from: 'Retry', retryCount: 1 });
    await h.send(retry);
    await h.drain();
    await h.send(retry);
    await h.drain();
    const audits = await h.memoryStore.getMessageAudits(request.eventId!);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      auditorName: 'Manager',
      auditType: MessageAuditType.Retry,
      endpointId: 'Billing',
    });
    expect(
      await h.memoryStore.getEventInStatus({
        key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
        status: ResolutionStatus.Pending,
      }),
    ).toMatchObject({
      messageType: MessageType.RetryRequest,
    });
    expect(await h.memoryStore.getEventHistory(request.eventId!)).toHaveLength(1);
  });

  it('follows a handoff: Pending(Handoff) with job details, kept while the settlement is in flight (history only), then Completed', async () => {
    const h = await createHarness();
    const request = eventRequest();
    const expectedBy = new Date(Date.UTC(2026, 5, 2));
    const parked = responseTo(request, MessageType.PendingHandoffResponse, {
      handoffReason: 'Waiting for ERP batch',
      externalJobId: 'job-42',
      expectedBy,
    });
    await h.send(request);
    await h.send(parked);
    await h.drain();
    expect(
      await h.memoryStore.getPendingHandoffByExternalJobId({
        endpointId: 'Billing',
        externalJobId: 'job-42',
      }),
    ).toMatchObject({
      pendingSubStatus: HANDOFF_SUB_STATUS,
      handoffReason: 'Waiting for ERP batch',
      expectedBy,
    });
    const settle = managerRequest(request, MessageType.HandoffCompletedRequest, {
      parentMessageId: parked.messageId,
    });
    await h.send(settle);
    await h.drain();
    // The engine decides whether the settlement applies; until it answers the row keeps the handoff.
    expect(
      await h.memoryStore.getEventInStatus({
        key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
        status: ResolutionStatus.Pending,
      }),
    ).toMatchObject({
      pendingSubStatus: HANDOFF_SUB_STATUS,
      messageType: MessageType.PendingHandoffResponse,
    });
    expect((await h.memoryStore.getEventHistory(request.eventId!)).map((m) => m.messageType)).toContain(
      MessageType.HandoffCompletedRequest,
    );
    h.clock.advance(45_000);
    await h.send(
      responseTo(request, MessageType.ResolutionResponse, {
        parentMessageId: settle.messageId,
        originatingFrom: 'Manager',
        processingTimeMs: 250,
      }),
    );
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
    // The outcome of handed-off work reports wall-clock time since the request; history keeps the raw hop.
    expect(row?.processingTimeMs).toBeGreaterThanOrEqual(45_000);
    expect(row?.processingTimeMs).toBeLessThan(60_000);
    const history = await h.memoryStore.getEventHistory(request.eventId!);
    expect(history.at(-1)?.processingTimeMs).toBe(250);
  });

  it('applies the wall-clock override to the ErrorResponse of a failed handoff', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(request);
    await h.send(responseTo(request, MessageType.PendingHandoffResponse, { handoffReason: 'external' }));
    const failed = managerRequest(request, MessageType.HandoffFailedRequest);
    await h.send(failed);
    await h.drain();
    h.clock.advance(30_000);
    await h.send(
      responseTo(request, MessageType.ErrorResponse, {
        parentMessageId: failed.messageId,
        originatingFrom: 'Manager',
        processingTimeMs: 5,
      }),
    );
    await h.drain();
    const row = await h.memoryStore.getEventInStatus({
      key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
      status: ResolutionStatus.Failed,
    });
    expect(row?.processingTimeMs).toBeGreaterThanOrEqual(30_000);
  });

  it('keeps the handler processing time of an outcome without handoff', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(request);
    await h.send(responseTo(request, MessageType.ResolutionResponse, { processingTimeMs: 75 }));
    await h.drain();
    expect(
      (await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! }))?.processingTimeMs,
    ).toBe(75);
  });

  it('refuses a late copy of a request that arrives after its outcome; the row keeps the outcome', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(responseTo(request, MessageType.ResolutionResponse));
    await h.send(request);
    await h.drain();
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
    expect(h.handler.stats).toMatchObject({ recorded: 1, refused: 1 });
    expect(h.logs.some((l) => l.level === 'debug' && l.message.startsWith('Stale write refused'))).toBe(true);
    // Both messages are settled; the refused one is not retried and does not notify.
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
      active: 0,
      scheduled: 0,
      deadLettered: 0,
    });
    expect(h.changes).toHaveLength(1);
    // The history still records both messages.
    expect(await h.memoryStore.getEventHistory(request.eventId!)).toHaveLength(2);
  });

  it('keeps a reprocess-deferred trigger in the history only and completes it', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(request);
    await h.send(managerRequest(request, MessageType.ProcessDeferredRequest));
    await h.drain();
    expect(await h.memoryStore.getEventHistory(request.eventId!)).toHaveLength(2);
    expect(await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! })).toMatchObject({
      resolutionStatus: ResolutionStatus.Pending,
      messageType: MessageType.EventRequest,
    });
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
  });

  it('has no status for Unknown unless it is a dead-letter notice', () => {
    expect(() =>
      resultingStatus({ messageType: MessageType.Unknown, deadLetterErrorDescription: null }),
    ).toThrow(UnmappedMessageTypeError);
    expect(resultingStatus({ messageType: MessageType.Unknown, deadLetterErrorDescription: '' })).toBe(
      ResolutionStatus.DeadLettered,
    );
  });

  it('completes the message even when the state-change notifier fails', async () => {
    const down = async () => {
      throw new Error('push hub down');
    };
    const h = await createHarness({
      notifier: { notify: down },
    });
    const request = eventRequest();
    await h.send(request);
    await h.drain();
    expect(await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! })).not.toBeNull();
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
    expect(h.logs.some((l) => l.level === 'warn' && l.message.includes('notifier failed'))).toBe(true);
  });
});
