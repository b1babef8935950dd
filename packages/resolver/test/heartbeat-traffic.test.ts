import { MessageType, RESOLVER_INPUT } from '@nimbus/core';
import { HeartbeatStatus, StorageProviderTransientError } from '@nimbus/message-store';
import { heartbeatProbe, RESOLVER_SERVICE_ID } from '@nimbus/resolver';
import { whileAdvancing } from '@nimbus/testing';
import { describe, expect, it } from 'vitest';
import { withFaults } from '../src/e2e/index.js';
import { createHarness, type Harness } from './support/harness.js';
import { heartbeatAnswer } from './support/heartbeats.js';
import { eventRequest } from './support/messages.js';

async function probeRows(h: Harness, endpointId: string) {
  return (await h.memoryStore.getEndpointMetadata(endpointId))?.heartbeats ?? [];
}

async function expectSettledWithoutTracking(h: Harness, eventId = 'hb-event-1') {
  expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
    active: 0,
    scheduled: 0,
    deadLettered: 0,
  });
  expect(await h.memoryStore.getEventHistory(eventId)).toEqual([]);
  expect(await h.memoryStore.getMessageAudits(eventId)).toEqual([]);
}

describe('heartbeat traffic on the Resolver input', () => {
  it('drops the copy of an endpoint probe without writing anything', async () => {
    const h = await createHarness();
    const probe = heartbeatProbe('Billing', 'probe-1', new Date(h.clock.now()));
    await h.send(probe);
    await h.drain();
    expect(await h.memoryStore.getEndpointMetadata('Billing')).toBeNull();
    expect(
      await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: probe.headers.EventId! }),
    ).toBeNull();
    await expectSettledWithoutTracking(h, probe.headers.EventId);
    expect(h.changes).toEqual([]);
  });

  it.each([
    [MessageType.ResolutionResponse, HeartbeatStatus.On],
    [MessageType.UnsupportedResponse, HeartbeatStatus.Unsupported],
    [MessageType.ErrorResponse, HeartbeatStatus.Off],
    [MessageType.DeferralResponse, HeartbeatStatus.Off],
    [MessageType.SkipResponse, HeartbeatStatus.Unknown],
  ])('records a %s answer as %s, never as tracking', async (messageType, status) => {
    const h = await createHarness();
    await h.send(heartbeatAnswer({ messageType }));
    await h.drain();
    const [row] = await probeRows(h, 'Billing');
    expect(row?.endpointHeartbeatStatus).toBe(status);
    expect(await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: 'hb-event-1' })).toBeNull();
    await expectSettledWithoutTracking(h);
  });

  it('attributes the answer to the payload endpoint over From, and falls back to From when it is blank', async () => {
    const h = await createHarness();
    await h.send(heartbeatAnswer({ payload: { endpoint: 'Erp' }, correlationId: 'p-erp' }));
    await h.send(heartbeatAnswer({ payload: { endpoint: '   ' }, correlationId: 'p-billing' }));
    await h.drain();
    expect((await probeRows(h, 'Erp')).map((r) => r.messageId)).toEqual(['p-erp']);
    expect((await probeRows(h, 'Billing')).map((r) => r.messageId)).toEqual(['p-billing']);
  });

  it('keys the row by correlation id, else by the message id', async () => {
    const h = await createHarness();
    await h.send(heartbeatAnswer({ correlationId: 'probe-7', parentMessageId: 'self' }));
    await h.send(heartbeatAnswer({ messageId: 'answer-only', correlationId: null, parentMessageId: 'self' }));
    await h.drain();
    expect((await probeRows(h, 'Billing')).map((r) => r.messageId).sort()).toEqual([
      'answer-only',
      'probe-7',
    ]);
  });

  it('carries the payload timings and SDK version, and falls back to the enqueue time', async () => {
    const h = await createHarness();
    const sent = new Date(h.clock.now() - 2_000);
    const received = new Date(h.clock.now() - 1_000);
    await h.send(
      heartbeatAnswer({
        correlationId: 'timed',
        payload: {
          forwardSendTime: sent.toISOString(),
          forwardReceivedTime: received.toISOString(),
          sdkVersion: '1.2.3',
        },
      }),
    );
    await h.send(heartbeatAnswer({ correlationId: 'untimed', payload: {} }));
    await h.drain();
    const rows = await probeRows(h, 'Billing');
    const timed = rows.find((r) => r.messageId === 'timed');
    expect(timed).toMatchObject({ startTime: sent, receivedTime: received, sdkVersion: '1.2.3' });
    expect(timed!.endTime.getTime()).toBeGreaterThanOrEqual(received.getTime());
    const untimed = rows.find((r) => r.messageId === 'untimed');
    expect(untimed).toMatchObject({ startTime: new Date(h.clock.now()), sdkVersion: '' });
  });

  it('completes answers when the store keeps no heartbeat rows', async () => {
    const h = await createHarness({
      store: (memory) => {
        const { setHeartbeat: _, setServiceHealth: __, ...tracking } = memory;
        return tracking;
      },
    });
    await h.send(heartbeatAnswer());
    await h.send(heartbeatProbe('Resolver', 'self-1', new Date(h.clock.now())));
    await h.drain();
    await expectSettledWithoutTracking(h);
    expect(await h.memoryStore.getServiceHealth()).toEqual([]);
  });

  it('notifies a heartbeat change (not an endpoint change) and still completes when the notifier fails', async () => {
    const h = await createHarness();
    await h.send(heartbeatAnswer());
    await h.drain();
    expect(h.changes).toEqual([{ kind: 'heartbeat', endpointId: 'Billing' }]);

    const down = async () => {
      throw new Error('hub down');
    };
    const failing = await createHarness({
      notifier: { notify: down },
    });
    await failing.send(heartbeatAnswer());
    await failing.drain();
    expect(await probeRows(failing, 'Billing')).toHaveLength(1);
    await expectSettledWithoutTracking(failing);
  });

  it('diverts a heartbeat identified only by its content', async () => {
    const h = await createHarness();
    await h.send(heartbeatAnswer({ eventTypeId: null }));
    await h.drain();
    expect(await probeRows(h, 'Billing')).toHaveLength(1);
    await expectSettledWithoutTracking(h);
  });

  it('lets ordinary traffic through the normal path', async () => {
    const h = await createHarness();
    const request = eventRequest();
    await h.send(request);
    await h.drain();
    expect(await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! })).not.toBeNull();
    expect(await h.memoryStore.getEndpointMetadata('Billing')).toBeNull();
  });

  it('retries an answer in place when the store is briefly unavailable, and records it', async () => {
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [
          { method: 'setHeartbeat', error: () => new StorageProviderTransientError('down'), times: 1 },
        ]),
    });
    await h.send(heartbeatAnswer());
    await whileAdvancing(h.clock, h.drain());
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ scheduled: 0, deadLettered: 0 });
    expect(await probeRows(h, 'Billing')).toHaveLength(1);
  });
});

describe('Resolver liveness self-probe', () => {
  it('records the Resolver as On with version, last seen and round trip, clears the probe id and notifies', async () => {
    const h = await createHarness();
    const sentAt = new Date(h.clock.now());
    expect(
      await h.memoryStore.tryClaimServiceProbe({
        serviceId: RESOLVER_SERVICE_ID,
        dueBefore: sentAt,
        probeMessageId: 'self-1',
      }),
    ).toBe(true);
    await h.send(heartbeatProbe('Resolver', 'self-1', sentAt));
    h.clock.advance(40);
    await h.drain();
    const [health] = await h.memoryStore.getServiceHealth();
    expect(health).toMatchObject({
      serviceId: RESOLVER_SERVICE_ID,
      status: HeartbeatStatus.On,
      version: '9.9.9-test',
      lastProbeMessageId: null,
      lastSeenUtc: new Date(h.clock.now()),
      roundTripMs: 40,
    });
    expect(h.changes).toEqual([{ kind: 'serviceHealth', serviceId: RESOLVER_SERVICE_ID }]);
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
  });
});
