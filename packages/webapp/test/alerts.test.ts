import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Logger, systemClock } from '@nimbus/core';
import { HeartbeatStatus } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSqlAlertStore,
  createWebApp,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyAlertSignature,
} from '../src/index.js';
import { startSmtpSink, startWebhookReceiver } from './support/alert-sinks.js';
import { type Harness, READER, startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { memoryStores, sqliteStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
const SECRET = 'alert-secret-shared-with-the-receiver';
const WAIT = { timeout: 10_000, interval: 50 };

/** Every log line, to prove no secret reaches the log. */
const lines: string[] = [];
const capture: Logger = {
  debug: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`),
  info: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`),
  warn: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`),
  error: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`),
};

describe('alerts: webhook and e-mail on the real stores, against a local receiver and SMTP sink', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs, sleep: systemClock.sleep };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-alerts-'));
  const alertFile = path.join(dir, 'alerts.db');
  const round = () => h.webApp.alerting.runOnce();
  const subscribe = async (body: Json) => {
    const result = await h.admin.post('/api/endpoints/Erp/alert-subscriptions', body);
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as Json & { id: string };
  };
  const deliveries = async (id: string) =>
    (await h.admin.get(`/api/endpoints/Erp/alert-subscriptions/${id}/deliveries`)).body as Json[];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startSmtpSink();
    h = await startHarness(sqliteStores, {
      webApp: {
        clock,
        logger: capture,
        alerts: {
          store: createSqlAlertStore({ dialect: 'sqlite', filename: alertFile }),
          smtp: { host: '127.0.0.1', port: smtp.port, from: 'nimbus@example.test' },
          everyMs: 0,
          // The receiver listens on loopback, which webhooks may not target unless the operator allows it.
          allowPrivateWebhookTargets: true,
          retry: { maxAttempts: 3, baseDelayMs: 40, maxDelayMs: 200 },
        },
      },
    });
    // The seeded failures are on the platform before anyone subscribes: they are not news.
    await round();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await smtp?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a new failure group is posted once, signed with the shared secret, even with two WebApp instances', async () => {
    const created = await subscribe({
      channel: 'webhook',
      url: receiver.url,
      secret: SECRET,
      triggers: ['NewFailureGroup'],
    });
    expect(created).toMatchObject({
      signed: true,
      target: 'http://127.0.0.1:' + new URL(receiver.url).port + '/…',
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    await round();
    expect(receiver.received).toHaveLength(0);

    await seedFailedRows(h.stores.store, 'Erp', ['evt-wh-1', 'evt-wh-2'], {
      errorTextOf: (id) => `Warehouse 'W-${id}' refused the order`,
    });
    await round();
    await round();
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    const timestamp = String(hook!.headers[TIMESTAMP_HEADER]);
    expect(verifyAlertSignature(SECRET, timestamp, hook!.body, String(hook!.headers[SIGNATURE_HEADER]))).toBe(
      true,
    );
    expect(
      verifyAlertSignature(
        'another-secret-entirely',
        timestamp,
        hook!.body,
        String(hook!.headers[SIGNATURE_HEADER]),
      ),
    ).toBe(false);
    expect(
      verifyAlertSignature(SECRET, timestamp, `${hook!.body} `, String(hook!.headers[SIGNATURE_HEADER])),
    ).toBe(false);
    const body = JSON.parse(hook!.body) as Json & { details: Json };
    expect(body).toMatchObject({ trigger: 'NewFailureGroup', endpointId: 'Erp', subscriptionId: created.id });
    expect(body.details).toMatchObject({
      normalisedMessage: 'Warehouse <value> refused the order',
      eventCount: 2,
    });

    // A second instance over the same store and alert store: both evaluate at once, one alert goes out.
    const second = await createWebApp({
      store: h.stores.store,
      identityStore: h.stores.identityStore,
      transport: h.transport,
      env: {},
      clock,
      logger: capture,
      uiDistDir: '/nonexistent-ui-dist',
      alerts: {
        store: createSqlAlertStore({ dialect: 'sqlite', filename: alertFile }),
        everyMs: 0,
        allowPrivateWebhookTargets: true,
      },
    });
    try {
      await seedFailedRows(h.stores.store, 'Erp', ['evt-wh-3'], {
        errorTextOf: () => 'Pricing service timed out after 30 s',
      });
      await Promise.all([round(), second.alerting.runOnce(), round(), second.alerting.runOnce()]);
      await round();
      await second.alerting.runOnce();
      expect(receiver.received.map((r) => (JSON.parse(r.body) as { summary: string }).summary)).toEqual([
        expect.stringContaining('Warehouse <value> refused the order'),
        expect.stringContaining('Pricing service timed out after <n> s'),
      ]);
    } finally {
      await second.close();
    }
  });

  it('retries a failed delivery with growing back-off, records every attempt, and gives up after the last', async () => {
    const created = await subscribe({
      channel: 'webhook',
      url: receiver.url,
      secret: SECRET,
      triggers: ['HeartbeatLost'],
    });
    receiver.state.failNext = 2;
    const test = await h.admin.post(`/api/endpoints/Erp/alert-subscriptions/${created.id}/test`);
    expect(test).toMatchObject({ status: 202, body: { queued: true } });
    await expect
      .poll(async () => {
        await round();
        return (await deliveries(created.id))[0]?.status;
      }, WAIT)
      .toBe('Delivered');
    const [delivered] = (await deliveries(created.id)) as {
      attemptLog: { ok: boolean; error: string | null; at: string }[];
    }[];
    expect(delivered!.attemptLog.map((a) => [a.ok, a.error])).toEqual([
      [false, 'The webhook answered HTTP 500.'],
      [false, 'The webhook answered HTTP 500.'],
      [true, null],
    ]);
    const at = delivered!.attemptLog.map((a) => Date.parse(a.at));
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(40);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(80);

    receiver.state.failNext = 100;
    await h.admin.post(`/api/endpoints/Erp/alert-subscriptions/${created.id}/test`);
    await expect
      .poll(async () => {
        await round();
        return (await deliveries(created.id))[0]?.status;
      }, WAIT)
      .toBe('Failed');
    expect((await deliveries(created.id))[0]).toMatchObject({
      attempts: 3,
      lastError: 'The webhook answered HTTP 500.',
    });
    receiver.state.failNext = 0;

    const listed = await h.admin.get('/api/alert-subscriptions');
    const mine = (listed.body as { subscriptions: Json[] }).subscriptions.find((s) => s.id === created.id);
    expect(mine).toMatchObject({ lastDelivery: { status: 'Failed', attempts: 3 } });
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    expect(JSON.stringify(listed.body)).not.toContain('path-secret');
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain('path-secret');
    expect(lines.some((l) => l.includes('Alert delivery failed for good'))).toBe(true);
  });

  it('sessions blocked longer than N minutes by one cause raise one alert for the cause, not one per session', async () => {
    const before = receiver.received.length;
    await subscribe({
      channel: 'webhook',
      url: receiver.url,
      secret: SECRET,
      triggers: ['SessionBlocked'],
      blockedMinutes: 2,
      payload: 'customer locked',
    });
    await round();
    expect(receiver.received.length).toBe(before);
    clock.offsetMs = 3 * 60_000;
    try {
      await round();
      await round();
      const blocked = receiver.received
        .slice(before)
        .map((r) => JSON.parse(r.body) as Json & { details: Json; alert: Json });
      expect(blocked.map((b) => b.trigger)).toEqual(['SessionBlocked']);
      expect(blocked[0]!.alert).toMatchObject({ state: 'open', sequence: 1 });
      expect(blocked[0]!.details).toMatchObject({ sessionCount: 2 });
      expect((blocked[0]!.details.sessionIds as string[]).sort()).toEqual(['cust-1', 'cust-4']);
      expect(blocked[0]!.summary).toMatch(
        /^Sessions on Erp blocked by Error: ERP said no: customer locked \(2 sessions blocked for 2\+ min\)$/,
      );
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('an endpoint whose heartbeat is lost is mailed through the SMTP server, once', async () => {
    await subscribe({ channel: 'mail', mail: 'oncall@example.test', triggers: ['HeartbeatLost'] });
    const store = h.stores.store;
    await store.setHeartbeatSettings({
      ...(await store.getHeartbeatSettings()),
      enabled: true,
      intervalSeconds: 60,
      timeoutSeconds: 10,
    });
    const answered = new Date(Date.now() - 10 * 60_000);
    await store.setHeartbeat({
      endpointId: 'Erp',
      heartbeat: {
        messageId: 'hb-1',
        startTime: answered,
        receivedTime: answered,
        endTime: answered,
        intervalSeconds: 60,
        sdkVersion: '0.1.0',
        endpointHeartbeatStatus: HeartbeatStatus.On,
      },
    });
    await round();
    await round();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ from: 'nimbus@example.test', to: ['oncall@example.test'] });
    expect(smtp.mails[0]!.raw).toContain('Subject: [NimBus] Heartbeat of Erp lost');
    expect(smtp.mails[0]!.raw).toContain('"trigger": "HeartbeatLost"');
  });
});

describe('alert subscriptions refuse what cannot work, and only Owners of the endpoint manage them', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('names the missing url, secret or SMTP server', async () => {
    const post = (body: Json) => h.admin.post('/api/endpoints/Erp/alert-subscriptions', body);
    expect(await post({ channel: 'webhook', secret: SECRET, triggers: ['HeartbeatLost'] })).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'body.url' }] },
    });
    expect(
      await post({ channel: 'webhook', url: 'https://alerts.example.test/x', triggers: ['HeartbeatLost'] }),
    ).toMatchObject({
      status: 400,
      body: { issues: [{ path: 'body.secret' }] },
    });
    expect(
      await post({
        channel: 'webhook',
        url: 'file:///etc/passwd',
        secret: SECRET,
        triggers: ['HeartbeatLost'],
      }),
    ).toMatchObject({ status: 400 });
    expect(
      await post({ channel: 'mail', mail: 'a@example.test', triggers: ['HeartbeatLost'] }),
    ).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('SMTP') },
    });
    const reader = await h.signedIn(READER);
    const refused = await reader.post('/api/endpoints/Erp/alert-subscriptions', {
      channel: 'webhook',
      url: 'http://127.0.0.1:9/x',
      secret: SECRET,
      triggers: ['HeartbeatLost'],
    });
    expect(refused.status).toBe(403);
    expect((await h.admin.get('/api/alert-subscriptions')).body).toMatchObject({
      mailConfigured: false,
      subscriptions: [],
    });
  });
});
