import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNimbusClient, NimbusApiError, type SessionAuth, signIn, unwrap } from '../src/index.js';
import { type RunningWebApp, startWebApp } from './support/web-app.js';

describe('@nimbus/client against a real WebApp server', () => {
  let web: RunningWebApp;
  let session: SessionAuth;
  beforeAll(async () => {
    web = await startWebApp();
    session = await signIn({
      baseUrl: web.url,
      email: DEFAULT_ADMIN_EMAIL,
      password: DEFAULT_ADMIN_PASSWORD,
    });
  }, 60_000);
  afterAll(() => web?.close());

  it('calls the public operations without credentials, and is refused the others with a 401 naming the operation', async () => {
    const anonymous = createNimbusClient({ baseUrl: `${web.url}/` });
    const { response } = await anonymous.GET('/healthz');
    expect(response.status).toBe(200);
    const refusal = await unwrap(anonymous.GET('/api/endpoints')).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(NimbusApiError);
    expect(refusal).toMatchObject({ status: 401, operation: 'GET /api/endpoints' });
  });

  it('works with a cookie session: reads, and writes with the CSRF token the sign-in set', async () => {
    const client = createNimbusClient({ baseUrl: web.url, auth: session });
    const me = await unwrap(client.GET('/api/auth/me'));
    expect(me.email).toBe(DEFAULT_ADMIN_EMAIL);
    const created = await unwrap(
      client.POST('/api/account/tokens', {
        body: { name: 'client-test', maxRole: 'Reader', expiresInDays: 1 },
      }),
    );
    expect(created.token).toMatch(/^nimbus_pat_/);
    // The same cookies without the CSRF token: the WebApp refuses the write.
    const noCsrf = createNimbusClient({ baseUrl: web.url, auth: { ...session, csrfToken: 'wrong' } });
    const refusal = await unwrap(
      noCsrf.POST('/api/account/tokens', { body: { name: 'no-csrf', expiresInDays: 1 } }),
    ).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 403, operation: 'POST /api/account/tokens' });
  });

  it('works with a bearer API token, with typed path and query parameters', async () => {
    const owner = createNimbusClient({ baseUrl: web.url, auth: session });
    const { token } = await unwrap(
      owner.POST('/api/account/tokens', { body: { name: 'bearer-test', expiresInDays: 1 } }),
    );
    const client = createNimbusClient({ baseUrl: web.url, auth: { type: 'token', token } });
    const endpoints = await unwrap(client.GET('/api/endpoints'));
    expect(endpoints.map((e) => e.endpointId)).toContain('Erp');
    const page = await unwrap(
      client.GET('/api/endpoints/{endpointId}/events', {
        params: { path: { endpointId: 'Erp' }, query: { status: 'Failed', pageSize: 10 } },
      }),
    );
    expect(page.events.map((e) => e.eventId)).toEqual(['ev-client']);
    const skipped = await unwrap(
      client.POST('/api/endpoints/{endpointId}/events/{eventId}/skip', {
        params: { path: { endpointId: 'Erp', eventId: 'ev-client' } },
        body: { comment: 'reader token' },
      }),
    ).catch((e: unknown) => e);
    // The token of an Owner acts with the Owner's roles; a wrong one is refused outright.
    expect(skipped).not.toBeInstanceOf(Error);
    const wrong = createNimbusClient({ baseUrl: web.url, auth: { type: 'token', token: `${token}x` } });
    await expect(unwrap(wrong.GET('/api/endpoints'))).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a wrong password at sign-in with the WebApp message', async () => {
    const refusal = await signIn({ baseUrl: web.url, email: DEFAULT_ADMIN_EMAIL, password: 'not-it' }).catch(
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(NimbusApiError);
    expect(refusal).toMatchObject({ status: 401, operation: 'POST /account/login' });
  });

  it('names the field problems of a 400', async () => {
    const client = createNimbusClient({ baseUrl: web.url, auth: session });
    const refusal = await unwrap(
      client.POST('/api/account/tokens', { body: { name: 'bad', expiresInDays: 9999 } }),
    ).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 400 });
    expect((refusal as NimbusApiError).issues.map((issue) => issue.path).join()).toContain('expiresInDays');
  });
});
