import { defineEndpoint, definePlatform, HEARTBEAT_EVENT_TYPE_ID, RESOLVER_INPUT } from '@nimbus/core';
import {
  DEFAULT_HEARTBEAT_SETTINGS,
  HeartbeatStatus,
  withStateChangeNotifications,
} from '@nimbus/message-store';
import { createHeartbeatScheduler, RESOLVER_SERVICE_ID } from '@nimbus/resolver';
import { describe, expect, it } from 'vitest';
import { createHarness, ENDPOINTS, type Harness } from './support/harness.js';
import { heartbeatAnswer } from './support/heartbeats.js';

function scheduler(h: Harness, catalog: readonly string[] = ENDPOINTS) {
  return createHeartbeatScheduler({
    transport: h.transport,
    // The store notifies (after each committed write); the scheduler itself tells nobody.
    store: withStateChangeNotifications(h.memoryStore, {
      notify: async (change) => void h.changes.push(change),
    }),
    catalog,
    clock: h.clock,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

async function enable(h: Harness, intervalSeconds = 60, timeoutSeconds = 20) {
  await h.memoryStore.setHeartbeatSettings({
    ...DEFAULT_HEARTBEAT_SETTINGS,
    enabled: true,
    intervalSeconds,
    timeoutSeconds,
  });
}

describe('heartbeat scheduler', () => {
  it('probes the Resolver even while sending is disabled, once per interval', async () => {
    const h = await createHarness();
    const a = scheduler(h);
    const first = await a.tick();
    expect(first).toMatchObject({ resolverProbed: true, probesSent: 0 });
    const [probe] = await h.transport.peek(RESOLVER_INPUT);
    expect(probe).toMatchObject({ sessionId: 'Heartbeat-Resolver' });
    expect(probe?.headers).toMatchObject({
      To: 'Resolver',
      From: 'Manager',
      EventTypeId: HEARTBEAT_EVENT_TYPE_ID,
    });
    expect((await a.tick()).resolverProbed).toBe(false);

    await h.drain();
    const [health] = await h.memoryStore.getServiceHealth();
    expect(health).toMatchObject({
      serviceId: RESOLVER_SERVICE_ID,
      status: HeartbeatStatus.On,
      lastProbeMessageId: null,
    });
  });

  it('sends one probe per eligible endpoint with a Pending row first, and only one instance wins the interval', async () => {
    const h = await createHarness();
    await enable(h);
    await h.memoryStore.enableHeartbeatOnEndpoint({ endpointId: 'erp', enable: false });
    const a = scheduler(h);
    const b = scheduler(h);
    const [ra, rb] = [await a.tick(), await b.tick()];
    expect(ra.probesSent + rb.probesSent).toBe(2);
    for (const endpointId of ['Crm', 'Billing']) {
      const [row] = (await h.memoryStore.getEndpointMetadata(endpointId))!.heartbeats;
      expect(row).toMatchObject({ endpointHeartbeatStatus: HeartbeatStatus.Pending, intervalSeconds: 60 });
      const [probe] = await h.transport.peek(endpointId);
      expect(probe).toMatchObject({
        messageId: row!.messageId,
        correlationId: row!.messageId,
        sessionId: 'Heartbeat',
      });
    }
    expect(await h.transport.peek('Erp')).toEqual([]);
    h.clock.advance(60_000);
    expect((await a.tick()).probesSent).toBe(2);
  });

  it('leaves out endpoints a platform defines with heartbeat: false', async () => {
    const h = await createHarness();
    await enable(h);
    const platform = definePlatform([defineEndpoint('Crm'), defineEndpoint('Billing', { heartbeat: false })]);
    const s = createHeartbeatScheduler({
      transport: h.transport,
      store: h.memoryStore,
      catalog: platform,
      clock: h.clock,
    });
    expect(await s.sendNow()).toBe(1);
    expect(await h.transport.peek('Billing')).toEqual([]);
  });

  it('settles an answered probe On and sweeps an unanswered one to Off after the timeout', async () => {
    const h = await createHarness();
    await enable(h, 60, 20);
    const s = scheduler(h, ['Crm', 'Billing']);
    await s.tick();
    const billingProbe = (await h.memoryStore.getEndpointMetadata('Billing'))!.heartbeats[0]!;
    await h.send(
      heartbeatAnswer({ correlationId: billingProbe.messageId, payload: { endpoint: 'Billing' } }),
    );
    await h.drain();
    h.changes.length = 0;
    h.clock.advance(25_000);
    const swept = await s.tick();
    expect(swept.sweptEndpoints).toEqual(['Crm']);
    expect((await h.memoryStore.getEndpointMetadata('Crm'))!.endpointHeartbeatStatus).toBe(
      HeartbeatStatus.Off,
    );
    expect((await h.memoryStore.getEndpointMetadata('Billing'))!.endpointHeartbeatStatus).toBe(
      HeartbeatStatus.On,
    );
    expect(h.changes).toContainEqual({ kind: 'heartbeat', endpointId: 'Crm' });
  });

  it('sweeps an unanswered Resolver probe to Off', async () => {
    const h = await createHarness();
    const s = scheduler(h);
    await s.tick();
    h.clock.advance(61_000);
    const result = await s.tick();
    expect(result.sweptServices).toEqual([RESOLVER_SERVICE_ID]);
    expect(result.resolverProbed).toBe(false); // the interval (300 s) has not passed yet
    const [health] = await h.memoryStore.getServiceHealth();
    expect(health?.status).toBe(HeartbeatStatus.Off);
  });

  it('folds settled probes into uptime days and an open gap', async () => {
    const h = await createHarness();
    await enable(h, 60, 20);
    const s = scheduler(h, ['Billing']);
    await s.tick(); // probe 1, answered
    const first = (await h.memoryStore.getEndpointMetadata('Billing'))!.heartbeats[0]!;
    await h.send(
      heartbeatAnswer({
        correlationId: first.messageId,
        payload: { endpoint: 'Billing', sdkVersion: '1.0.0' },
      }),
    );
    await h.drain();
    h.clock.advance(60_000);
    await s.tick(); // probe 2, never answered
    h.clock.advance(60_000);
    await s.tick(); // sweeps probe 2 to Off, folds, sends probe 3
    h.clock.advance(60_000);
    const result = await s.tick(); // folds probe 2's outcome
    expect(result.folded).toBe(true);
    const days = await h.memoryStore.getHeartbeatUptimeDays(new Date(Date.UTC(2026, 5, 1)));
    expect(days).toEqual([expect.objectContaining({ endpointId: 'Billing', received: 1, missed: 2 })]);
    const gaps = await h.memoryStore.getHeartbeatGaps(new Date(Date.UTC(2026, 5, 1)));
    expect(gaps).toEqual([
      expect.objectContaining({ endpointId: 'Billing', toUtc: null, sdkVersionBefore: '1.0.0' }),
    ]);
  });

  it('never throws from a tick when the store fails', async () => {
    const h = await createHarness();
    const broken = new Proxy(h.memoryStore, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function'
          ? async () => {
              throw new Error(`store down (${String(property)})`);
            }
          : value;
      },
    });
    const s = createHeartbeatScheduler({
      transport: h.transport,
      store: broken,
      catalog: ENDPOINTS,
      clock: h.clock,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    await expect(s.tick()).resolves.toMatchObject({ probesSent: 0, resolverProbed: false });
  });
});
