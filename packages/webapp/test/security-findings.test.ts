import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client.js';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './support/harness.js';
import { ERP, FAILED_EVENT, OTHER_FAILED_EVENT } from './support/seed.js';
import { openLiveStream } from './support/sse-reader.js';
import { memoryStores, type StoreFactory } from './support/store-factories.js';

type Json = Record<string, unknown>;
const CRM_READER = { email: 'crm-reader@example.test', password: 'Crm!Reader!Pass1' };

/** The memory stores, with a switch that makes every audit write fail. */
function failingAuditStores() {
  const state = { failAudits: false };
  const factory: StoreFactory = {
    name: 'memory store whose audit writes can fail',
    create: async () => {
      const set = await memoryStores.create();
      const store = new Proxy(set.store, {
        get(target, property, receiver) {
          if (property === 'storeMessageAudit' && state.failAudits)
            return async () => {
              throw new Error('audit table unavailable');
            };
          const value = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { ...set, store };
    },
  };
  return { state, factory };
}

async function userOnCrm(h: Harness): Promise<ApiClient> {
  const created = await h.admin.post('/api/users', { ...CRM_READER, siteRole: 'None' });
  expect(created.status).toBe(201);
  const id = (created.body as Json).id as string;
  expect((await h.admin.put(`/api/users/${id}/endpoint-roles/Crm`, { role: 'Reader' })).status).toBe(200);
  return h.signedIn(CRM_READER);
}

describe('WebApp security findings', () => {
  const failing = failingAuditStores();
  let h: Harness;
  let crm: ApiClient;
  beforeAll(async () => {
    h = await startHarness(failing.factory);
    crm = await userOnCrm(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('3: reads under /api/endpoints/Crm/… never return another endpoint’s event data', async () => {
    await h.admin.post(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/comments`, { comment: 'secret note' });
    for (const path of ['audits', 'history']) {
      const leaked = await crm.get(`/api/endpoints/Crm/events/${FAILED_EVENT}/${path}`);
      expect(leaked.status, path).toBe(200);
      expect(leaked.body, path).toEqual([]);
    }
    expect((await crm.get(`/api/endpoints/Crm/events/${FAILED_EVENT}`)).status).toBe(404);
    expect((await crm.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/audits`)).status).toBe(403);
    const own = (await h.admin.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/audits`)).body as Json[];
    expect(own.some((a) => a.comment === null && String(a.data).includes('secret note'))).toBe(true);
  });

  it('5: refuses NUL bytes in a body, a query or a path with 400 naming the field (also anonymous sign-in)', async () => {
    const login = await h.newClient().post('/account/login', { email: 'a\u0000@x.test', password: 'x' });
    expect(login.status).toBe(400);
    expect((login.body as Json).message).toContain('body.email');
    const query = await h.admin.get(`/api/endpoints/${ERP}/events?eventId=a%00b`);
    expect(query.status).toBe(400);
    expect((query.body as Json).message).toContain('query.eventId');
    const reader = await h.signedIn(READER);
    const before = (await h.stores.store.getMessageAudits('evt%00x')).length;
    const path = await reader.post(`/api/endpoints/${ERP}/events/evt%00x/resubmit`, {});
    expect(path.status).toBe(400);
    expect((path.body as Json).message).toContain('params.eventId');
    expect((await h.stores.store.getMessageAudits('evt%00x')).length).toBe(before);
    const deep = await h.admin.post(
      `/api/endpoints/${ERP}/events/${FAILED_EVENT}/comments`,
      `{"comment":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    );
    expect(deep.status).toBe(400);
  });

  it('5: an action or a denial whose audit row cannot be stored does not happen (503)', async () => {
    const sent = async () => (await h.transport.peek(ERP, { max: 1000 })).length;
    const before = await sent();
    const contributor = await h.signedIn(CONTRIBUTOR);
    const reader = await h.signedIn(READER);
    failing.state.failAudits = true;
    try {
      const action = await contributor.post(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/skip`, {});
      expect(action.status).toBe(503);
      expect((action.body as Json).error).toBe('AuditUnavailable');
      const denied = await reader.post(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/skip`, {});
      expect(denied.status).toBe(503);
      const signIn = await h.newClient().post('/account/login', CONTRIBUTOR);
      expect(signIn.status).toBe(503);
    } finally {
      failing.state.failAudits = false;
    }
    expect(await sent()).toBe(before);
  });

  it('8: opens every id publishing accepts (up to 100 characters, encoded or not) and names a longer one (400)', async () => {
    const longest = `é ${'x'.repeat(98)}`;
    const found = await h.admin.get(`/api/endpoints/${ERP}/events/${encodeURIComponent(longest)}`);
    expect(found.status).toBe(404);
    const tooLong = await h.admin.get(`/api/endpoints/${ERP}/events/${'x'.repeat(101)}`);
    expect(tooLong.status).toBe(400);
    expect((tooLong.body as Json).message).toContain('params.eventId');
  });

  it('6: an invalid continuationToken is a 400 naming it on the events, messages and audits lists', async () => {
    for (const path of [`/api/endpoints/${ERP}/events`, '/api/messages', '/api/audits']) {
      for (const token of ['-1', 'abc', '1e5']) {
        const result = await h.admin.get(`${path}?continuationToken=${token}`);
        expect(result.status, `${path} ${token}`).toBe(400);
        expect((result.body as Json).message).toContain('query.continuationToken');
      }
    }
  });

  it('7: the live stream only carries updates for the user’s endpoints', async () => {
    const stream = await openLiveStream(crm);
    await stream.waitForText(': connected');
    await h.notifier.notify({ kind: 'endpoint', endpointId: ERP });
    await h.notifier.notify({ kind: 'endpoint', endpointId: 'Crm' });
    await stream.waitForText('"endpointId":"Crm"');
    expect(stream.text).not.toContain(`"endpointId":"${ERP}"`);
    await stream.close();
  });

  it('7: bulk job progress only reaches users with a role on the job’s endpoint', async () => {
    const stream = await openLiveStream(crm);
    const admin = await openLiveStream(h.admin);
    await stream.waitForText(': connected');
    const started = await h.admin.post(`/api/endpoints/${ERP}/bulk`, {
      action: 'skip',
      eventIds: ['nope-1'],
    });
    expect(started.status).toBe(202);
    await admin.waitForText('event: bulkprogress');
    await h.notifier.notify({ kind: 'endpoint', endpointId: 'Crm' });
    await stream.waitForText('"endpointId":"Crm"');
    expect(stream.text).not.toContain('bulkprogress');
    await Promise.all([stream.close(), admin.close()]);
  });

  it('7: the live stream ends on sign-out and when the user’s roles change', async () => {
    const other = await h.signedIn(CRM_READER);
    const first = await openLiveStream(other);
    await first.waitForText(': connected');
    expect((await other.post('/account/logout')).status).toBe(204);
    await first.waitForEnd();

    const again = await h.signedIn(CRM_READER);
    const second = await openLiveStream(again);
    await second.waitForText(': connected');
    const id = ((await again.get('/api/auth/me')).body as Json).id as string;
    expect((await h.admin.put(`/api/users/${id}/endpoint-roles/Crm`, { role: 'None' })).status).toBe(200);
    await second.waitForEnd();
  });
});
