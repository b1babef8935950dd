import { type Logger, topologyFromPlatform } from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryIdentityStore,
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  type WebApp,
  type WebAppOptions,
} from '../src/index.js';
import { samplePlatform } from './support/sample-platform.js';

const lines: { fields: Record<string, unknown>; message: string }[] = [];
const capture: Logger = {
  debug: (fields, message) => void lines.push({ fields, message }),
  info: (fields, message) => void lines.push({ fields, message }),
  warn: (fields, message) => void lines.push({ fields, message }),
  error: (fields, message) => void lines.push({ fields, message }),
};

describe('WebApp probes, metrics and running behind a proxy', () => {
  let app: WebApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
    lines.length = 0;
  });

  async function start(
    options: {
      trustProxy?: boolean;
      failingStore?: boolean;
      metrics?: boolean;
      metricsOptions?: Partial<WebAppOptions>;
      env?: Record<string, string>;
    } = {},
  ) {
    const transport = new MemoryTransport();
    await transport.applyTopology(topologyFromPlatform(samplePlatform));
    const store = createMemoryMessageStore({ env: {} });
    if (options.failingStore)
      store.getHeartbeatSettings = async () => {
        throw new Error('connection refused');
      };
    app = await createWebApp({
      store,
      transport,
      identityStore: createMemoryIdentityStore(),
      platform: samplePlatform,
      logger: capture,
      env: options.env ?? {},
      uiDistDir: '/nonexistent-ui-dist',
      ...(options.trustProxy ? { trustProxy: true } : {}),
      ...(options.metrics
        ? {
            metrics: { contentType: 'text/plain; version=0.0.4', scrape: async () => 'up 1\n' },
            metricsToken: 'scrape-secret',
            ...options.metricsOptions,
          }
        : {}),
    });
    return app.listen();
  }

  it('answers /healthz and /readyz without a session; /readyz is 503 naming the store when it fails', async () => {
    const url = await start();
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { store: { ready: true }, transport: { ready: true } },
    });
    await app?.close();
    const downUrl = await start({ failingStore: true });
    const down = await fetch(`${downUrl}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      checks: { store: { ready: false, reason: 'store: connection refused' }, transport: { ready: true } },
    });
  });

  it('answers unknown API paths, and /metrics when metrics are off, with a JSON 404 (never the UI page)', async () => {
    const url = await start();
    for (const path of ['/api/no-such-thing', '/api/endpoints/Erp/nope', '/metrics']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ error: 'NotFound' });
    }
  });

  it('serves /metrics to the metrics token or a credential with a site role, never anonymously by default', async () => {
    const url = await start({
      metrics: true,
      env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD },
    });
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const scraped = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toBe('up 1\n');
    // A Prometheus job can use an API token (credentials_file) instead of a shared metrics token.
    const login = await signIn(url, {});
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /NimBus\.Csrf=([^;]+)/.exec(cookie)?.[1] ?? '';
    const minted = await fetch(`${url}/api/account/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
      body: JSON.stringify({ name: 'prometheus', maxRole: 'Reader' }),
    });
    expect(minted.status).toBe(201);
    const { token } = (await minted.json()) as { token: string };
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
  });

  it('serves /metrics anonymously only when metricsAccess says so', async () => {
    const url = await start({ metrics: true, metricsOptions: { metricsAccess: 'anonymous' } });
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
  });

  const signIn = (url: string, headers: Record<string, string>, password = DEFAULT_ADMIN_PASSWORD) =>
    fetch(`${url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: DEFAULT_ADMIN_EMAIL, password }),
    });
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };

  it('with --trust-proxy: Secure cookies and HSTS when the original request was https, and the client IP', async () => {
    const url = await start({ trustProxy: true });
    const response = await signIn(url, forwarded);
    expect(response.status).toBe(200);
    for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/; Secure/);
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await signIn(url, {});
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    for (const cookie of plain.headers.getSetCookie()) expect(cookie).not.toMatch(/; Secure/);
    await fetch(`${url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forwarded },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'Wrong!Pass123' }),
    });
    expect(lines.find((l) => l.message.startsWith('Sign-in refused'))?.fields.ip).toBe('203.0.113.7');
  });

  it('without it, forwarded headers are ignored', async () => {
    const url = await start();
    const response = await signIn(url, forwarded);
    expect(response.status).toBe(200);
    for (const cookie of response.headers.getSetCookie()) expect(cookie).not.toMatch(/; Secure/);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});
