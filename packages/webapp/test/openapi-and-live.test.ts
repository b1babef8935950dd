import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('describes every route with its zod schemas at /openapi.json, and lists them at /api-docs', async () => {
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
    const page = await (await fetch(`${h.url}/api-docs`)).text();
    expect(page).toContain('/api/endpoints/{endpointId}/events/{eventId}/resubmit');
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
    await h.notifier.notifyEndpointStateChanged(ERP);
    while (!text.includes('event: endpointupdate')) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(`"endpointId":"${ERP}"`);
    controller.abort();
  });
});
