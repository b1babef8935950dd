import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Header, type Logger, topologyFromPlatform, uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { createSqlTransport, type SqlTransport } from '@nimbus/transport-sql';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from './support/alert-sinks.js';
import type { ApiClient } from './support/api-client.js';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './support/harness.js';
import { samplePlatform } from './support/sample-platform.js';
import { ERP } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
const WAIT = { timeout: 20_000, interval: 50 };

/** Every audit row of the store. */
async function auditRows(h: Harness) {
  const rows = [];
  let token: string | null = null;
  do {
    const page = await h.stores.store.searchAudits({ filter: {}, continuationToken: token, maxItems: 1000 });
    rows.push(...page.audits.map((a) => a.audit));
    token = page.continuationToken;
  } while (token);
  return rows;
}

/** The audit rows the action wrote. */
async function newRows(h: Harness, action: () => Promise<unknown>) {
  const before = new Set((await auditRows(h)).map((row) => JSON.stringify(row)));
  const result = await action();
  return { result, rows: (await auditRows(h)).filter((row) => !before.has(JSON.stringify(row))) };
}

/** Every line logged, as text, so a test can say what never reaches a log. */
function capturingLogger(lines: string[]): Logger {
  const write = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** zxcvbn takes seconds on this (repeated l33t words); the check must not hold the event loop meanwhile. */
const SLOW_TO_SCORE = 'p@ssw0rd'.repeat(25);

describe('WebApp security, second round', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-security-2-'));
  const transportFile = join(dir, 'transport.db');
  const logLines: string[] = [];
  let transport: SqlTransport;
  let h: Harness;
  beforeAll(async () => {
    transport = await createSqlTransport({ dialect: 'sqlite', path: transportFile });
    await transport.applyTopology(topologyFromPlatform(samplePlatform));
    h = await startHarness(memoryStores, {
      webApp: { transport, logger: capturingLogger(logLines), alerts: { everyMs: 0 } },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await transport?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A webhook subscription written to the store directly, past the checks of the API (as one stored before them). */
  const storeWebhookSubscription = (url: string) =>
    h.stores.store.subscribeToEndpointNotification({
      endpointId: ERP,
      type: 'webhook',
      mail: '',
      url,
      author: 'test',
      eventTypes: [],
      payload: '',
      frequency: 0,
      alert: {
        triggers: ['NewFailureGroup'],
        blockedMinutes: 15,
        webhookSecret: 'shared-secret-of-the-test',
        createdAt: new Date().toISOString(),
      },
    });

  it('1: a slow-to-score 200-character password does not stall the event loop (/healthz stays fast)', async () => {
    const reader = await h.signedIn(READER);
    let slowest = 0;
    let done = false;
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        const answer = await fetch(`${h.url}/healthz`);
        await answer.text();
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const changed = await reader.post('/account/change-password', {
      currentPassword: READER.password,
      newPassword: SLOW_TO_SCORE,
    });
    const created = await h.admin.post('/api/users', {
      email: 'slow-password@example.test',
      password: SLOW_TO_SCORE,
    });
    done = true;
    await probe;
    // Repeated words score low: both are refused with the reason, and neither held the loop.
    expect(changed.status).toBe(400);
    expect((changed.body as Json).message).toMatch(/body\.newPassword: .*harder to guess/);
    expect(created.status).toBe(400);
    expect(slowest).toBeLessThan(1_500);
  }, 120_000);

  it('2: unreadable dead letters are listed as such; requeue refuses them by id (409) and skips them for "all"', async () => {
    const publish = async (sessionId: string) => {
      const messageId = uuidv7();
      await transport.publish([
        {
          source: ERP,
          messages: [
            { messageId, sessionId, correlationId: null, headers: { [Header.To]: ERP }, body: '{}' },
          ],
        },
      ]);
      const session = await transport.acceptSession(ERP, { sessionId, waitMs: 1_000 });
      const [received] = await session!.receive({ max: 1, waitMs: 1_000 });
      await session!.deadLetter(received!, { reason: 'test', description: 'dead-lettered by the test' });
      await session!.release();
      return messageId;
    };
    const poison = await publish('dl-poison');
    const fine = await publish('dl-fine');
    const db = new Database(transportFile);
    try {
      db.prepare('UPDATE "nimbus_transport_dead_letters" SET headers = ? WHERE message_id = ?').run(
        '{"To":"Erp",',
        poison,
      );
    } finally {
      db.close();
    }
    const contributor = await h.signedIn(CONTRIBUTOR);
    const list = await contributor.get(`/api/dead-letters/${ERP}`);
    expect(list.status).toBe(200);
    const items = (list.body as { items: Json[] }).items;
    const bad = items.find((i) => i.messageId === poison)!;
    expect(bad.unreadable).toMatch(/headers are not valid JSON/);
    expect(items.find((i) => i.messageId === fine)!.unreadable).toBeNull();
    expect((await contributor.get(`/api/dead-letters/${ERP}/${bad.id}`)).status).toBe(200);

    const one = await newRows(h, () =>
      contributor.post(`/api/dead-letters/${ERP}/requeue`, { ids: [bad.id] }),
    );
    expect(one.result).toMatchObject({ status: 409 });
    const refused = one.result as { body: Json };
    expect(refused.body.message).toContain(String(bad.id));
    expect(refused.body.message).toMatch(/headers are not valid JSON/);
    expect(one.rows).toHaveLength(1);
    expect(JSON.parse(one.rows[0]!.data!)).toMatchObject({ outcome: 'refused' });

    const all = await newRows(h, () => contributor.post(`/api/dead-letters/${ERP}/requeue`, {}));
    expect(all.result).toMatchObject({ status: 200, body: { requeued: 1, unreadableLeft: 1 } });
    expect(all.rows.map((r) => r.auditType)).toEqual([MessageAuditType.RequeueDeadLetters]);
    expect((await transport.peek(ERP, { sessionId: 'dl-fine' })).map((m) => m.messageId)).toEqual([fine]);
    expect((await transport.peekDeadLetters(ERP)).map((d) => d.messageId)).toEqual([poison]);
  }, 120_000);

  it('3: a webhook url with credentials is refused; a stored one never puts its secrets in lastError or the log', async () => {
    const subscribe = (url: string) =>
      h.admin.post(`/api/endpoints/${ERP}/alert-subscriptions`, {
        channel: 'webhook',
        url,
        secret: 'shared-secret-of-the-test',
        triggers: ['NewFailureGroup'],
      });
    const refused = await subscribe('http://user:hunter2-pass@alerts.example.test/hook?key=SECRETKEY');
    expect(refused.status).toBe(400);
    expect((refused.body as Json).message).toMatch(/body\.url: .*credentials/);

    // One stored before this check existed (or written to the store directly) is redacted when it fails.
    const stored = await storeWebhookSubscription(
      'http://user:hunter2-pass@alerts.example.test/hook/abc?key=SECRETKEY',
    );
    expect((await h.admin.post(`/api/endpoints/${ERP}/alert-subscriptions/${stored.id}/test`)).status).toBe(
      202,
    );
    const reader = await h.signedIn(READER);
    const path = `/api/endpoints/${ERP}/alert-subscriptions/${stored.id}/deliveries`;
    await expect
      .poll(async () => ((await reader.get(path)).body as Json[])[0]?.lastError ?? null, WAIT)
      .not.toBeNull();
    const seen = JSON.stringify([
      (await reader.get(path)).body,
      (await reader.get('/api/alert-subscriptions')).body,
      logLines,
    ]);
    expect(seen).toContain('credentials');
    for (const secret of ['hunter2-pass', 'SECRETKEY', '//user', '/abc']) expect(seen).not.toContain(secret);
  }, 120_000);

  it('5: webhooks cannot target loopback or private addresses (literal, decimal, IPv6, or by name)', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const port = new URL(receiver.url).port;
      for (const url of [
        `http://127.0.0.1:${port}/hook`,
        `http://2130706433:${port}/hook`,
        `http://[::1]:${port}/hook`,
        `http://localhost:${port}/hook`,
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/hook',
        'http://[::ffff:127.0.0.1]/hook',
      ]) {
        const answer = await h.admin.post(`/api/endpoints/${ERP}/alert-subscriptions`, {
          channel: 'webhook',
          url,
          secret: 'shared-secret-of-the-test',
          triggers: ['NewFailureGroup'],
        });
        expect(answer.status, url).toBe(400);
        expect((answer.body as Json).message, url).toMatch(/loopback, private, link-local or reserved/);
      }
      // A name is checked against what it resolves to, at delivery (here one already stored).
      const stored = await storeWebhookSubscription(`http://localhost:${port}/hooks/probe`);
      await h.admin.post(`/api/endpoints/${ERP}/alert-subscriptions/${stored.id}/test`);
      const path = `/api/endpoints/${ERP}/alert-subscriptions/${stored.id}/deliveries`;
      await expect
        .poll(async () => ((await h.admin.get(path)).body as Json[])[0]?.lastError ?? null, WAIT)
        .toMatch(/resolves to 127\.0\.0\.1/);
      expect(receiver.state.attempts).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('4: an API token cannot change or reset a password; a password change revokes the tokens (unless asked not to)', async () => {
    const user = { email: 'token-owner@example.test', password: 'Token!Owner!Pass1' };
    expect((await h.admin.post('/api/users', { ...user, siteRole: 'Reader' })).status).toBe(201);
    const session = await h.signedIn(user);
    const mint = async (client: ApiClient, name: string) =>
      ((await client.post('/api/account/tokens', { name, maxRole: 'Reader' })).body as Json).token as string;
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const first = await mint(session, 'ci');
    const withToken = await newRows(h, () =>
      h
        .newClient()
        .request(
          'POST',
          '/account/change-password',
          { currentPassword: user.password, newPassword: 'A-new passphrase for the owner' },
          bearer(first),
        ),
    );
    expect(withToken.result).toMatchObject({ status: 403 });
    expect(withToken.rows).toHaveLength(1);
    expect(withToken.rows[0]).toMatchObject({ accessDenied: true });
    const adminToken = await mint(h.admin, 'admin-ci');
    const users = (await h.admin.get('/api/users')).body as Json[];
    const id = users.find((u) => u.email === user.email)!.id;
    const reset = await h
      .newClient()
      .request(
        'POST',
        `/api/users/${id}/reset-password`,
        { newPassword: 'Reset by a token!! 42' },
        bearer(adminToken),
      );
    expect(reset.status).toBe(403);

    const kept = await mint(session, 'kept');
    const keep = await session.post('/account/change-password', {
      currentPassword: user.password,
      newPassword: 'A-new passphrase for the owner',
      revokeApiTokens: false,
    });
    expect(keep.status).toBe(200);
    expect((await h.newClient().request('GET', '/api/auth/me', undefined, bearer(kept))).body).toMatchObject({
      isAuthenticated: true,
    });
    const change = await session.post('/account/change-password', {
      currentPassword: 'A-new passphrase for the owner',
      newPassword: 'Yet another passphrase, longer',
    });
    expect(change.status).toBe(200);
    for (const token of [first, kept])
      expect((await h.newClient().request('GET', '/api/endpoints', undefined, bearer(token))).status).toBe(
        401,
      );
  }, 120_000);

  it('6: refusals write one audit row each: token management with a token (403), a job not visible (404)', async () => {
    const reader = await h.signedIn(READER);
    const token = ((await reader.post('/api/account/tokens', { name: 'six' })).body as Json).token as string;
    const viaToken = await newRows(h, () =>
      h.newClient().request(
        'POST',
        '/api/account/tokens',
        { name: 'more' },
        {
          headers: { authorization: `Bearer ${token}` },
        },
      ),
    );
    expect(viaToken.result).toMatchObject({ status: 403 });
    expect(viaToken.rows).toHaveLength(1);
    expect(viaToken.rows[0]).toMatchObject({ accessDenied: true, auditType: MessageAuditType.AccessDenied });
    const job = await newRows(h, () => reader.get('/api/bulk-jobs/someone-elses-job'));
    expect(job.result).toMatchObject({ status: 404 });
    expect(job.rows).toHaveLength(1);
    expect(JSON.parse(job.rows[0]!.data!)).toMatchObject({ status: 404, route: '/api/bulk-jobs/:jobId' });
  }, 120_000);
});

describe('WebApp security, second round: rate-limited sign-ins', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores, {
      webApp: { signInLimits: { perAccount: { max: 2, timeWindowMs: 60_000 } } },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('6: a rate-limited sign-in (429) writes its audit row like any refused one', async () => {
    const attempt = () =>
      h.newClient().post('/account/login', { email: 'victim@example.test', password: 'wrong-password' });
    await attempt();
    await attempt();
    const limited = await newRows(h, attempt);
    expect(limited.result).toMatchObject({ status: 429 });
    expect(limited.rows).toHaveLength(1);
    expect(limited.rows[0]).toMatchObject({
      accessDenied: true,
      auditType: MessageAuditType.SignInFailed,
      auditorName: 'victim@example.test',
    });
  }, 120_000);
});
