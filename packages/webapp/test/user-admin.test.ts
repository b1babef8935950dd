import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client.js';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './support/harness.js';
import { memoryStores, type StoreFactory, sqliteStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
type User = { id: string; email: string; siteRole: string; disabledAt: string | null };

async function audits(client: ApiClient, query: string): Promise<Json[]> {
  const result = await client.get(`/api/audits?${query}`);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return (result.body as { audits: Json[] }).audits;
}

function describeUserAdministration(factory: StoreFactory): void {
  describe(`user administration (${factory.name})`, () => {
    let h: Harness;
    const userId = async (email: string) =>
      ((await h.admin.get('/api/users')).body as User[]).find((u) => u.email === email)!.id;

    beforeAll(async () => {
      h = await startHarness(factory);
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    it('accepts a one-label domain like the bootstrap admin@local (reader@local), refuses what is no e-mail', async () => {
      const local = { email: 'reader@local', password: 'Local!Reader123', siteRole: 'Reader' };
      const created = await h.admin.post('/api/users', local);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await h.signedIn(local)).cookies.size).toBeGreaterThan(0);
      for (const email of ['reader', 'reader@', '@local', 'a b@local', 'x@local.']) {
        const refused = await h.admin.post('/api/users', { ...local, email });
        expect(refused.status, email).toBe(400);
        expect(JSON.stringify(refused.body)).toContain('body.email');
      }
    });

    it('a disabled account loses its session and cannot sign in until it is enabled again', async () => {
      const reader = await h.signedIn(READER);
      const id = await userId(READER.email);
      const disabled = await h.admin.put(`/api/users/${id}/disabled`, { disabled: true });
      expect(disabled.status).toBe(200);
      expect((disabled.body as User).disabledAt).not.toBeNull();
      expect((await reader.get('/api/endpoints')).status).toBe(401);
      const refused = await h.newClient().post('/account/login', READER);
      expect(refused).toMatchObject({ status: 401, body: { error: 'AccountDisabled' } });
      // A wrong password still gets the answer every wrong password gets: nothing about the account.
      const wrong = await h.newClient().post('/account/login', { ...READER, password: 'Wrong!Pass!123' });
      expect(wrong.body).toMatchObject({ message: 'Invalid email or password.' });

      expect((await h.admin.put(`/api/users/${id}/disabled`, { disabled: false })).status).toBe(200);
      expect((await (await h.signedIn(READER)).get('/api/endpoints')).status).toBe(200);
      const rows = await audits(h.admin, `eventId=user:${id}`);
      expect(rows.map((r) => r.auditType).slice(0, 2)).toEqual(['EnableUser', 'DisableUser']);
    });

    it('refuses to disable or delete yourself and to remove the last enabled site Owner', async () => {
      const me = await userId('admin@local');
      expect((await h.admin.put(`/api/users/${me}/disabled`, { disabled: true })).status).toBe(409);
      expect((await h.admin.delete(`/api/users/${me}`)).status).toBe(409);
      const demote = await h.admin.put(`/api/users/${me}/site-role`, { role: 'Contributor' });
      expect(demote.status).toBe(409);
      expect((demote.body as Json).message).toMatch(/last enabled site Owner/);
      // With a second Owner the first may step down.
      const second = { email: 'second-owner@example.test', password: 'Second!Owner!Pass9' };
      const created = await h.admin.post('/api/users', { ...second, siteRole: 'Owner' });
      expect(created.status).toBe(201);
      const other = await h.signedIn(second);
      expect((await other.put(`/api/users/${me}/site-role`, { role: 'Contributor' })).status).toBe(200);
      expect((await other.put(`/api/users/${me}/site-role`, { role: 'Owner' })).status).toBe(200);
    });

    it('resets a password: the old one and the old sessions stop working, the audit names no password', async () => {
      const contributor = await h.signedIn(CONTRIBUTOR);
      const id = await userId(CONTRIBUTOR.email);
      const weak = await h.admin.post(`/api/users/${id}/reset-password`, { newPassword: 'password1' });
      expect(weak).toMatchObject({ status: 400, body: { issues: [{ path: 'body.newPassword' }] } });
      const newPassword = 'Fresh!Contrib-Passphrase-42';
      expect((await h.admin.post(`/api/users/${id}/reset-password`, { newPassword })).status).toBe(204);
      expect((await contributor.get('/api/endpoints')).status).toBe(401);
      expect((await h.newClient().post('/account/login', CONTRIBUTOR)).status).toBe(401);
      await h.signedIn({ email: CONTRIBUTOR.email, password: newPassword });
      const [row] = await audits(h.admin, `eventId=user:${id}&auditType=ResetPassword`);
      expect(row).toMatchObject({ auditType: 'ResetPassword', accessDenied: false });
      expect(JSON.stringify(row)).not.toContain(newPassword);
    });

    it('deletes an account with its sessions; it is gone from the list', async () => {
      const doomed = { email: 'doomed@example.test', password: 'Doomed!Account!77' };
      const id = ((await h.admin.post('/api/users', doomed)).body as User).id;
      const session = await h.signedIn(doomed);
      expect((await h.admin.delete(`/api/users/${id}`)).status).toBe(204);
      expect((await session.get('/api/endpoints')).status).toBe(401);
      expect(((await h.admin.get('/api/users')).body as User[]).map((u) => u.email)).not.toContain(
        doomed.email,
      );
      expect((await h.admin.delete(`/api/users/${id}`)).status).toBe(404);
      const [row] = await audits(h.admin, 'auditType=DeleteUser');
      expect(row).toMatchObject({ eventId: `user:${id}`, auditorName: 'Administrator' });
    });

    it('searches the audit log by who, action, text and time range, page by page', async () => {
      const auditor = { email: 'auditee@example.test', password: 'Auditee!Passphrase-31' };
      expect((await h.admin.post('/api/users', { ...auditor, siteRole: 'Contributor' })).status).toBe(201);
      const contributor = await h.signedIn(auditor);
      const before = new Date().toISOString();
      for (const text of ['first look at the ERP', 'called the ERP team', 'ERP fixed it']) {
        const result = await contributor.post('/api/endpoints/Erp/events/evt-failed-1/comments', {
          comment: text,
        });
        expect(result.status).toBe(200);
      }
      const by = 'auditorName=AUDITEE&auditType=Comment';
      const mine = `${by}&from=${encodeURIComponent(before)}`;
      expect((await audits(h.admin, mine)).map((r) => r.data)).toEqual([
        expect.stringContaining('ERP fixed it'),
        expect.stringContaining('called the ERP team'),
        expect.stringContaining('first look at the ERP'),
      ]);
      expect((await audits(h.admin, `${mine}&text=CALLED%20THE`)).length).toBe(1);
      expect((await audits(h.admin, `auditorName=nobody-like-this`)).length).toBe(0);
      const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      expect((await audits(h.admin, `${by}&from=${future}`)).length).toBe(0);
      const first = await h.admin.get(`/api/audits?${mine}&pageSize=2`);
      const page = first.body as { audits: Json[]; continuationToken: string };
      expect(page.audits).toHaveLength(2);
      const rest = await audits(
        h.admin,
        `${mine}&pageSize=2&continuationToken=${encodeURIComponent(page.continuationToken)}`,
      );
      expect(rest.map((r) => r.data)).toEqual([expect.stringContaining('first look at the ERP')]);
      const backwards = await h.admin.get(`/api/audits?from=${future}&to=${encodeURIComponent(before)}`);
      expect(backwards).toMatchObject({ status: 400, body: { issues: [{ path: 'query.from' }] } });
      expect((await h.admin.get('/api/audits?auditType=NoSuchAction')).status).toBe(400);
    });
  });
}

describeUserAdministration(memoryStores);
describeUserAdministration(sqliteStores);
