import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_REFERENCE_FILES } from '../src/http/api-docs-routes.js';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;

describe('OpenAPI document and live updates', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('describes every route with its zod schemas at /openapi.json, public operations with security: []', async () => {
    const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as Json;
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const change = paths['/api/endpoints/{endpointId}/events/{eventId}/resubmit-with-changes']!.post!;
    const schema = (((change.requestBody as Json).content as Json)['application/json'] as Json)
      .schema as Json;
    expect(schema.required).toEqual(['eventJson']);
    expect(paths['/api/endpoints/{endpointId}/events']!.get!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'status', in: 'query' })]),
    );
    expect(Object.keys(paths).length).toBeGreaterThan(25);
    expect(paths['/healthz']!.get!.security).toEqual([]);
    expect(paths['/account/login']!.post!.security).toEqual([]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('serves the Scalar API reference at /api/docs, under a CSP that admits only its own inline script', async () => {
    const redirect = await fetch(`${h.url}/api/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
    const page = await fetch(`${h.url}/api/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="js/scalar.js"');
    expect(html).toContain('/openapi.json');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe');
    const script = await fetch(`${h.url}/api/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    // Every other page keeps the strict policy.
    const other = await fetch(`${h.url}/openapi.json`);
    expect(other.headers.get('content-security-policy')).toContain("script-src 'self';");
  });

  it('names the real session cookie and CSRF header, and asks for the header on writes only', async () => {
    const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as Json;
    const schemes = (doc.components as Json).securitySchemes as Record<string, Json>;
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
    expect(schemes.csrfHeader).toMatchObject({ type: 'apiKey', in: 'header', name: CSRF_HEADER });
    expect(String(schemes.csrfHeader!.description)).toContain(CSRF_COOKIE);
    expect(schemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const paths = doc.paths as Record<string, Record<string, Json>>;
    expect(paths['/api/endpoints']!.get!.security).toEqual([{ sessionCookie: [] }, { apiToken: [] }]);
    expect(paths['/api/endpoints/{endpointId}/events/{eventId}/skip']!.post!.security).toEqual([
      { sessionCookie: [], csrfHeader: [] },
      { apiToken: [] },
    ]);
    const live = paths['/api/live']!.get!;
    expect(live.security).toEqual([{ sessionCookie: [] }, { apiToken: [] }]);
    expect(Object.keys(((live.responses as Json)['200'] as Json).content as Json)).toEqual([
      'text/event-stream',
    ]);
  });

  it('refuses the SSE stream without a session', async () => {
    expect((await fetch(`${h.url}/api/live`)).status).toBe(401);
  });

  it('pushes endpoint updates from the state-change notifier over SSE', async () => {
    const controller = new AbortController();
    const response = await fetch(`${h.url}/api/live`, {
      headers: { cookie: [...h.admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    text += decoder.decode((await reader.read()).value);
    expect(text).toContain(': connected');
    await h.notifier.notify({ kind: 'endpoint', endpointId: ERP });
    while (!text.includes('event: endpointupdate')) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(`"endpointId":"${ERP}"`);
    controller.abort();
  });
});

describe('OpenAPI document coverage', () => {
  let h: Harness;
  let uiDir: string;
  beforeAll(async () => {
    // A UI build of two files, so the static-file routes are registered as they are in production.
    uiDir = mkdtempSync(path.join(tmpdir(), 'nimbus-ui-'));
    mkdirSync(path.join(uiDir, 'assets'));
    writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(path.join(uiDir, 'assets', 'app.js'), 'export {};');
    h = await startHarness(memoryStores, {
      uiDistDir: uiDir,
      webApp: {
        storageHookKey: 'hook-key-for-the-test',
        metrics: { contentType: 'text/plain; version=0.0.4', scrape: async () => '' },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  it('lists every route Fastify registered (static UI files and automatic HEAD routes aside)', () => {
    const paths = h.webApp.openApi.paths;
    const staticFiles = new Set(['/index.html', '/assets/app.js', ...API_REFERENCE_FILES]);
    const registered = h.webApp.registeredRoutes.filter(
      (r) => r.method !== 'HEAD' && !staticFiles.has(r.url),
    );
    // The walk must see the routes it checks: the API, the stream, the probes and the static files.
    expect(registered.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/api/live', '/healthz', '/metrics', '/api/storagehook/endpoint/:id']),
    );
    expect(h.webApp.registeredRoutes.map((r) => r.url)).toEqual(expect.arrayContaining([...staticFiles]));
    const missing = registered
      .filter((r) => !paths[r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes the OpenAPI document does not describe').toEqual([]);
    const documented = Object.entries(paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const served = new Set(
      registered.map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    expect(
      documented.filter((op) => !served.has(op)),
      'documented operations no route serves',
    ).toEqual([]);
  });
});
