import { silentLogger } from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryIdentityStore, createWebApp, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { type Harness, READER, startHarness } from './support/harness.js';
import { ERP, FAILED_EVENT, OTHER_FAILED_EVENT } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;

describe('WebApp security', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, path /, and not Secure over plain http', async () => {
    const client = h.newClient();
    await client.login(READER.email, READER.password);
    const session = client.lastSetCookies.find((c) => c.startsWith('NimBus.Identity='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Secure/i);
    const csrf = client.lastSetCookies.find((c) => c.startsWith('NimBus.Csrf='))!;
    expect(csrf).not.toMatch(/HttpOnly/i);
  });

  it('marks cookies Secure when the request came over https (behind a trusted proxy)', async () => {
    const app = await createWebApp({
      store: createMemoryMessageStore({ env: {} }),
      identityStore: createMemoryIdentityStore(),
      transport: new MemoryTransport(),
      logger: silentLogger,
      env: {},
      trustProxy: true,
      uiDistDir: '/nonexistent',
    });
    try {
      const client = new ApiClient(await app.listen());
      const result = await client.request(
        'POST',
        '/account/login',
        { email: 'admin@local', password: DEFAULT_ADMIN_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(result.status).toBe(200);
      expect(client.lastSetCookies.find((c) => c.startsWith('NimBus.Identity='))).toMatch(/; Secure/i);
    } finally {
      await app.close();
    }
  });

  it('rejects state-changing calls without the CSRF header, or with a wrong one, and sends nothing', async () => {
    const before = (await h.transport.peek(ERP, { max: 100 })).length;
    const missing = await h.admin.request(
      'POST',
      `/api/endpoints/${ERP}/events/${FAILED_EVENT}/resubmit`,
      {},
      { csrf: false },
    );
    expect(missing.status).toBe(403);
    expect((missing.body as Json).error).toBe('CsrfRejected');
    const wrong = await h.admin.request(
      'POST',
      `/api/endpoints/${ERP}/events/${FAILED_EVENT}/resubmit`,
      {},
      {
        csrf: false,
        headers: { 'x-csrf-token': 'forged' },
      },
    );
    expect(wrong.status).toBe(403);
    expect((await h.transport.peek(ERP, { max: 100 })).length).toBe(before);
  });

  it('only accepts sign-in as JSON (a cross-site form post is refused)', async () => {
    const result = await h.newClient().request('POST', '/account/login', 'email=admin%40local&password=x', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([400, 415]).toContain(result.status);
  });

  it('treats search terms with SQL or script fragments as plain text', async () => {
    for (const term of ["x' OR '1'='1", "'; DROP TABLE messages; --", '<script>alert(1)</script>']) {
      const q = encodeURIComponent(term);
      const result = await h.admin.get(
        `/api/endpoints/${ERP}/events?eventId=${q}&payload=${q}&sessionId=${q}`,
      );
      expect(result.status).toBe(200);
      expect((result.body as Json).events).toEqual([]);
      expect(result.headers.get('content-type')).toContain('application/json');
    }
    const all = (await h.admin.get(`/api/endpoints/${ERP}/events`)).body as Json;
    expect((all.events as unknown[]).length).toBeGreaterThan(0);
  });

  it('carries a script payload as JSON data, never as markup', async () => {
    const script = JSON.stringify({ customerId: 'cust-4', name: '<script>alert("x")</script>' });
    const sent = await h.admin.post(
      `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit-with-changes`,
      {
        eventJson: script,
      },
    );
    expect(sent.status).toBe(200);
    const page = await h.admin.get(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/audits`);
    expect(page.headers.get('content-type')).toContain('application/json');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('locks an account after five wrong passwords', async () => {
    const created = await h.admin.post('/api/users', {
      email: 'lock@example.test',
      password: 'Lock!Pass123',
    });
    expect(created.status).toBe(201);
    const client = h.newClient();
    for (let i = 0; i < 5; i++) {
      expect(
        (await client.post('/account/login', { email: 'lock@example.test', password: 'Wrong!Pass1' })).status,
      ).toBe(401);
    }
    const locked = await client.post('/account/login', {
      email: 'lock@example.test',
      password: 'Lock!Pass123',
    });
    expect(locked.status).toBe(401);
    expect((locked.body as Json).error).toBe('LockedOut');
  });

  it('changes the password: wrong current password is a 400 naming it, then only the new one works', async () => {
    await h.admin.post('/api/users', { email: 'change@example.test', password: 'Change!Pass1' });
    const client = await h.signedIn({ email: 'change@example.test', password: 'Change!Pass1' });
    const wrong = await client.post('/account/change-password', {
      currentPassword: 'Nope!Pass1',
      newPassword: 'Newer!Pass1',
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body as Json).message).toContain('body.currentPassword');
    const ok = await client.post('/account/change-password', {
      currentPassword: 'Change!Pass1',
      newPassword: 'Newer!Pass1',
    });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/endpoints')).status).toBe(200);
    expect(
      (await h.newClient().post('/account/login', { email: 'change@example.test', password: 'Change!Pass1' }))
        .status,
    ).toBe(401);
    expect(
      (await h.newClient().post('/account/login', { email: 'change@example.test', password: 'Newer!Pass1' }))
        .status,
    ).toBe(200);
  });

  it('shows a clear page for browser paths when the UI is not built, and JSON 404 for unknown API paths', async () => {
    const page = await fetch(`${h.url}/endpoints/Erp`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:ui');
    const api = await h.admin.get('/api/nothing-here');
    expect(api.status).toBe(404);
    expect((api.body as Json).error).toBe('NotFound');
  });
});
