import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, READER, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;

// Issue 27, the smaller points of 7.
describe('WebApp security, second round: smaller points', () => {
  const lines: string[] = [];
  let h: Harness;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    h = await startHarness(memoryStores, { webApp: { logger: pino({ level: 'info' }, sink) } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a Reader cannot mint a token with maxRole above their own roles (400 naming the field)', async () => {
    const reader = await h.signedIn(READER);
    const above = await reader.post('/api/account/tokens', { name: 'too-high', maxRole: 'Owner' });
    expect(above.status).toBe(400);
    expect((above.body as Json).message).toMatch(/body\.maxRole: maxRole Owner is above your own roles/);
    expect((await reader.post('/api/account/tokens', { name: 'ok', maxRole: 'Reader' })).status).toBe(201);
  });

  it('granting a role on an endpoint answers with the grants on endpoints the granting Owner owns only', async () => {
    const owner = { email: 'erp-owner@example.test', password: 'Erp!Owner!Pass1' };
    const target = { email: 'granted@example.test', password: 'Granted!Pass!1' };
    const ownerId = ((await h.admin.post('/api/users', { ...owner, siteRole: 'None' })).body as Json).id;
    const targetId = ((await h.admin.post('/api/users', { ...target, siteRole: 'None' })).body as Json).id;
    await h.admin.put(`/api/users/${ownerId}/endpoint-roles/${ERP}`, { role: 'Owner' });
    await h.admin.put(`/api/users/${targetId}/endpoint-roles/Crm`, { role: 'Contributor' });
    const erpOwner = await h.signedIn(owner);
    const granted = await erpOwner.put(`/api/users/${targetId}/endpoint-roles/${ERP}`, { role: 'Reader' });
    expect(granted.status).toBe(200);
    expect((granted.body as Json).endpointRoles).toEqual([{ endpointId: ERP, role: 'Reader' }]);
    const all = (await h.admin.get('/api/users')).body as Json[];
    expect(all.find((u) => u.id === targetId)!.endpointRoles).toHaveLength(2);
  });

  it('request logs carry no query-string values (a token sent as ?token=… stays out of the log)', async () => {
    await h.newClient().get('/api/auth/me?access_token=SECRET-IN-QUERY&x=1');
    const line = lines.find((l) => l.includes('request completed') && l.includes('/api/auth/me'));
    expect(line).toBeDefined();
    expect(line).toContain('access_token=…');
    expect(lines.join('\n')).not.toContain('SECRET-IN-QUERY');
  });
});
