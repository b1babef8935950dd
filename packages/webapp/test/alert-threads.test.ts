import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageType, systemClock } from '@nimbus/core';
import { EndpointRole, HeartbeatStatus, ResolutionStatus } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlAlertStore } from '../src/index.js';
import { startWebhookReceiver } from './support/alert-sinks.js';
import { type Harness, READER, startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { sqliteStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
type Hook = Json & {
  summary: string;
  details: Json;
  alert: { key: string; state: string; sequence: number };
};
const SECRET = 'alert-secret-shared-with-the-receiver';
const MINUTE = 60_000;

// Alerts per cause: one thread per failure group / blocking cause / heartbeat outage, on the SQLite alert
// store, delivered to a local webhook receiver that counts what it gets.
describe('alert threads: per cause, digested, rate-limited, snoozed, resolved', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs, sleep: systemClock.sleep };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-alert-threads-'));
  const round = () => h.webApp.alerting.runOnce();
  const subscribe = async (body: Json) => {
    const result = await h.admin.post('/api/endpoints/Erp/alert-subscriptions', {
      channel: 'webhook',
      url: receiver.url,
      secret: SECRET,
      ...body,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as Json & { id: string };
  };
  const hooksOf = (subscriptionId: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body) as Hook)
      .filter((b) => b.subscriptionId === subscriptionId);
  const ids = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${prefix}-${from + i}`);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    h = await startHarness(sqliteStores, {
      webApp: {
        clock,
        alerts: {
          store: createSqlAlertStore({ dialect: 'sqlite', filename: path.join(dir, 'alerts.db') }),
          everyMs: 0,
          allowPrivateWebhookTargets: true,
        },
      },
    });
    await round(); // the seeded failures are not news to the subscriptions below
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('300 sessions blocked by one cause: one group alert and one blocked alert whose counts rise, then resolved', async () => {
    const sub = await subscribe({
      triggers: ['NewFailureGroup', 'SessionBlocked'],
      blockedMinutes: 1,
      payload: 'Credit check',
      digestMinutes: 1,
    });
    const errorTextOf = (id: string) => `Credit check '${id}' refused by the bank`;
    await seedFailedRows(h.stores.store, 'Erp', ids('cc', 0, 100), { errorTextOf });
    await round();
    clock.offsetMs += 2 * MINUTE;
    await round();
    await seedFailedRows(h.stores.store, 'Erp', ids('cc', 100, 300), { errorTextOf });
    clock.offsetMs += 2 * MINUTE;
    await round();
    await round(); // nothing changed since: nothing sent
    const hooks = hooksOf(sub.id);
    expect(hooks.map((b) => [b.trigger, b.alert.state, b.alert.sequence])).toEqual([
      ['NewFailureGroup', 'open', 1],
      ['SessionBlocked', 'open', 1],
      ['NewFailureGroup', 'update', 2],
      ['SessionBlocked', 'update', 2],
    ]);
    const [groupOpen, blockedOpen, groupUpdate, blockedUpdate] = hooks;
    expect(groupOpen!.details).toMatchObject({ eventCount: 100, sessionCount: 100, endpointCount: 1 });
    expect(groupUpdate!.details).toMatchObject({ eventCount: 300, sessionCount: 300, endpointCount: 1 });
    expect(groupUpdate!.alert.key).toBe(groupOpen!.alert.key);
    expect(blockedOpen!.details).toMatchObject({ sessionCount: 100 });
    expect(blockedUpdate!.details).toMatchObject({ sessionCount: 300 });
    expect(blockedUpdate!.summary).toBe(
      'Update: Sessions on Erp blocked by Error: Credit check <value> refused by the bank (300 sessions blocked for 1+ min)',
    );

    // The group drains (every event skipped): one resolved notice per thread.
    for (const eventId of ids('cc', 0, 300))
      await h.stores.store.writeStatus({
        key: { endpointId: 'Erp', eventId, sessionId: `session-${eventId}` },
        status: ResolutionStatus.Skipped,
        content: {
          enqueuedTimeUtc: new Date(),
          messageType: MessageType.SkipResponse,
          endpointRole: EndpointRole.Subscriber,
        },
      });
    await round();
    await round();
    const after = hooksOf(sub.id).slice(4);
    expect(after.map((b) => [b.trigger, b.alert.state, b.alert.sequence]).sort()).toEqual([
      ['NewFailureGroup', 'resolved', 3],
      ['SessionBlocked', 'resolved', 3],
    ]);
    expect(after.find((b) => b.trigger === 'NewFailureGroup')!.summary).toBe(
      'Resolved: Failure group on Erp: Error: Credit check <value> refused by the bank (was 300 events in 300 sessions on 1 endpoint)',
    );
  }, 120_000);

  it('changes inside the digest window are held and sent as one update when it passes', async () => {
    const sub = await subscribe({ triggers: ['NewFailureGroup'], payload: 'Tariff', digestMinutes: 10 });
    const errorTextOf = (id: string) => `Tariff table '${id}' is missing`;
    await seedFailedRows(h.stores.store, 'Erp', ['tariff-1'], { errorTextOf });
    await round();
    await seedFailedRows(h.stores.store, 'Erp', ['tariff-2', 'tariff-3'], { errorTextOf });
    clock.offsetMs += 4 * MINUTE;
    await round();
    await seedFailedRows(h.stores.store, 'Erp', ['tariff-4'], { errorTextOf });
    clock.offsetMs += 4 * MINUTE;
    await round();
    expect(hooksOf(sub.id).map((b) => [b.alert.state, b.details.eventCount])).toEqual([['open', 1]]);
    clock.offsetMs += 3 * MINUTE;
    await round();
    await round();
    expect(hooksOf(sub.id).map((b) => [b.alert.state, b.details.eventCount])).toEqual([
      ['open', 1],
      ['update', 4],
    ]);
  });

  it('a subscription over its hourly limit waits: nothing is dropped, the rest is sent when the window frees', async () => {
    const sub = await subscribe({ triggers: ['NewFailureGroup'], payload: 'Quota', maxPerHour: 2 });
    for (const what of ['warehouse', 'printer', 'mailbox', 'ledger'])
      await seedFailedRows(h.stores.store, 'Erp', [`quota-${what}`], {
        errorTextOf: () => `Quota of the ${what} exceeded`,
      });
    await round();
    await round();
    expect(hooksOf(sub.id)).toHaveLength(2);
    expect(h.webApp.alerting.evaluator.heldByRateLimit).toBe(2);
    clock.offsetMs += 61 * MINUTE;
    await round();
    expect(
      hooksOf(sub.id)
        .map((b) => b.details.normalisedMessage)
        .sort(),
    ).toEqual([
      'Quota of the ledger exceeded',
      'Quota of the mailbox exceeded',
      'Quota of the printer exceeded',
      'Quota of the warehouse exceeded',
    ]);
  });

  it('a snoozed cause alerts nobody until the snooze ends; snoozing is audited and needs Contributor', async () => {
    const sub = await subscribe({ triggers: ['NewFailureGroup'], payload: 'Label printer' });
    const signature = 'Error: Label printer <value> jammed';
    const reader = await h.signedIn(READER);
    const refused = await reader.post('/api/endpoints/Erp/alert-snoozes', { signature, minutes: 30 });
    expect(refused.status).toBe(403);
    const bad = await h.admin.post('/api/endpoints/Erp/alert-snoozes', { signature, minutes: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('minutes');
    const snoozed = await h.admin.post('/api/endpoints/Erp/alert-snoozes', {
      signature,
      minutes: 30,
      comment: 'printer vendor on site',
    });
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(201);
    const listed = await reader.get('/api/endpoints/Erp/alert-snoozes');
    expect(listed.body).toEqual([expect.objectContaining({ signature, comment: 'printer vendor on site' })]);
    await seedFailedRows(h.stores.store, 'Erp', ['label-1', 'label-2'], {
      errorTextOf: (id) => `Label printer '${id}' jammed`,
    });
    await round();
    await round();
    expect(hooksOf(sub.id)).toHaveLength(0);
    clock.offsetMs += 31 * MINUTE;
    await round();
    expect(hooksOf(sub.id).map((b) => [b.alert.state, b.details.eventCount])).toEqual([['open', 2]]);
    const audits = await h.admin.get('/api/audits?endpointId=Erp&auditType=ManageSubscription&pageSize=200');
    const rows = (audits.body as { audits: { auditorName: string; accessDenied: boolean; data: string }[] })
      .audits;
    const snoozes = rows.filter((a) => (JSON.parse(a.data) as Json).action === 'snooze');
    expect(snoozes.map((a) => [a.auditorName, a.accessDenied])).toEqual([
      ['Administrator', false],
      [READER.email, true],
    ]);
    expect(JSON.parse(snoozes[0]!.data)).toMatchObject({
      signature,
      minutes: 30,
      comment: 'printer vendor on site',
    });
  });

  it('a heartbeat outage alerts once, however often the endpoint answers Off, and resolves when it is back', async () => {
    const sub = await subscribe({ triggers: ['HeartbeatLost'] });
    const store = h.stores.store;
    await store.setHeartbeatSettings({
      ...(await store.getHeartbeatSettings()),
      enabled: true,
      intervalSeconds: 60,
      timeoutSeconds: 10,
    });
    const beat = async (id: string, at: Date, status: HeartbeatStatus) =>
      store.setHeartbeat({
        endpointId: 'Erp',
        heartbeat: {
          messageId: id,
          startTime: at,
          receivedTime: at,
          endTime: at,
          intervalSeconds: 60,
          sdkVersion: '0.1.0',
          endpointHeartbeatStatus: status,
        },
      });
    const now = () => new Date(clock.now());
    await beat('hb-1', new Date(clock.now() - 10 * MINUTE), HeartbeatStatus.On);
    await round();
    await beat('hb-2', new Date(clock.now() - 9 * MINUTE), HeartbeatStatus.Off);
    await round();
    await beat('hb-3', new Date(clock.now() - 8 * MINUTE), HeartbeatStatus.Off);
    await round();
    expect(hooksOf(sub.id).map((b) => b.alert.state)).toEqual(['open']);
    await beat('hb-4', now(), HeartbeatStatus.On);
    await round();
    expect(hooksOf(sub.id).map((b) => [b.trigger, b.alert.state])).toEqual([
      ['HeartbeatLost', 'open'],
      ['HeartbeatLost', 'resolved'],
    ]);
  });

  it('a failure the retry policy retries raises no alert (no group, no blocked session)', async () => {
    const sub = await subscribe({
      triggers: ['NewFailureGroup', 'SessionBlocked'],
      blockedMinutes: 1,
      payload: 'throttled',
    });
    await seedFailedRows(h.stores.store, 'Erp', ['thr-1'], { errorTextOf: () => 'ERP throttled (429)' });
    const row = (
      await h.stores.store.getEventsByFilter({ filter: { endpointId: 'Erp' }, maxItems: 500 })
    ).events.find((e) => e.eventId === 'thr-1');
    await h.stores.store.writeStatus({
      key: { endpointId: 'Erp', eventId: 'thr-1', sessionId: row!.sessionId },
      status: ResolutionStatus.Failed,
      content: {
        ...row!,
        lastMessageId: 'thr-1-m2',
        retry: { attempt: 1, maxAttempts: 3, nextAttemptAt: now() },
      },
    });
    clock.offsetMs += 5 * MINUTE;
    await round();
    await round();
    expect(hooksOf(sub.id)).toEqual([]);
    function now() {
      return new Date(clock.now() + MINUTE);
    }
  });
});
