import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRIBUTOR, type Harness, startHarness } from './support/harness.js';
import { ERP, FAILED_EVENT, OTHER_FAILED_EVENT } from './support/seed.js';
import { openLiveStream } from './support/sse-reader.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;

async function bearer(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
}

describe('API tokens', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is shown once, stored hashed, acts with the user’s roles and needs no CSRF token', async () => {
    const contributor = await h.signedIn(CONTRIBUTOR);
    const created = await contributor.post('/api/account/tokens', { name: 'ci', expiresInDays: 7 });
    expect(created.status).toBe(201);
    const token = (created.body as Json).token as string;
    expect(token).toMatch(/^nimbus_pat_/);
    const listed = (await contributor.get('/api/account/tokens')).body as Json[];
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed[0]).toMatchObject({ name: 'ci', active: true, maxRole: null });
    const user = (await h.stores.identityStore.findUserByEmail(CONTRIBUTOR.email))!;
    const stored = await h.stores.identityStore.listApiTokens(user.id);
    expect(stored[0]!.tokenHash).not.toContain(token);

    expect((await bearer(h.url, token, 'GET', `/api/endpoints/${ERP}/events`)).status).toBe(200);
    const skipped = await bearer(
      h.url,
      token,
      'POST',
      `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/skip`,
      {},
    );
    expect(skipped.status).toBe(200);
    const audits = (await h.admin.get(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/audits`))
      .body as Json[];
    expect(audits.find((a) => a.auditType === 'Skip')?.auditorName).toBe(`${CONTRIBUTOR.email} (token ci)`);
  });

  it('can be narrower than the user (maxRole) and is refused (audited) above it', async () => {
    const contributor = await h.signedIn(CONTRIBUTOR);
    const created = await contributor.post('/api/account/tokens', { name: 'read-only', maxRole: 'Reader' });
    const token = (created.body as Json).token as string;
    expect((await bearer(h.url, token, 'GET', `/api/endpoints/${ERP}/events/${FAILED_EVENT}`)).status).toBe(
      200,
    );
    const denied = await bearer(
      h.url,
      token,
      'POST',
      `/api/endpoints/${ERP}/events/${FAILED_EVENT}/resubmit`,
      {},
    );
    expect(denied.status).toBe(403);
    const audits = (await h.admin.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/audits`)).body as Json[];
    expect(audits.filter((a) => a.accessDenied && String(a.auditorName).includes('read-only'))).toHaveLength(
      1,
    );
  });

  it('cannot mint tokens, is refused once revoked (its live stream ends), and both are audited', async () => {
    const contributor = await h.signedIn(CONTRIBUTOR);
    const created = (await contributor.post('/api/account/tokens', { name: 'to-revoke' })).body as Json;
    const token = created.token as string;
    expect((await bearer(h.url, token, 'POST', '/api/account/tokens', { name: 'child' })).status).toBe(403);
    const stream = await openLiveStream(h.newClient(), { authorization: `Bearer ${token}` });
    await stream.waitForText(': connected');
    expect((await contributor.delete(`/api/account/tokens/${created.id}`)).status).toBe(204);
    await stream.waitForEnd();
    expect((await bearer(h.url, token, 'GET', '/api/endpoints')).status).toBe(401);
    expect((await contributor.delete(`/api/account/tokens/${created.id}`)).status).toBe(404);
    const rows = await h.stores.store.getMessageAudits(`token:${created.id}`);
    expect(rows.map((r) => r.auditType)).toEqual(['CreateApiToken', 'RevokeApiToken']);
  });

  it('refuses a wrong bearer token with 401 rather than treating the call as anonymous', async () => {
    expect((await bearer(h.url, 'nimbus_pat_wrong', 'GET', '/api/endpoints')).status).toBe(401);
    expect(
      ((await bearer(h.url, 'nimbus_pat_wrong', 'GET', '/api/auth/me')).body as Json).isAuthenticated,
    ).toBe(false);
  });
});
