import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './harness.js';
import {
  BLOCKED_SESSION,
  DEFERRED_EVENTS,
  ERP,
  FAILED_EVENT,
  HANDOFF_EVENT,
  OTHER_FAILED_EVENT,
  PENDING_EVENT,
} from './seed.js';
import type { StoreFactory } from './store-factories.js';

type Json = Record<string, unknown>;
const obj = (value: unknown) => value as Json;
const list = (value: unknown) => value as Json[];

/** The WebApp API contract, run against any store factory (memory, SQLite, PostgreSQL). */
export function describeWebAppApi(factory: StoreFactory): void {
  describe(`WebApp API (${factory.name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(factory);
    });
    afterAll(async () => {
      await h?.close();
    });

    const erpMessages = async () => h.transport.peek(ERP, { max: 100 });
    const auditsOf = async (eventId: string) =>
      list((await h.admin.get(`/api/endpoints/${ERP}/events/${eventId}/audits`)).body);

    describe('authentication', () => {
      it('answers API calls without a session with 401 JSON, never a redirect', async () => {
        const result = await h.newClient().get('/api/endpoints');
        expect(result.status).toBe(401);
        expect(obj(result.body).error).toBe('Unauthorized');
      });

      it('refuses a wrong password with 401 and a missing field with 400 naming it', async () => {
        const client = h.newClient();
        expect(
          (await client.post('/account/login', { email: READER.email, password: 'Wrong!Pass1' })).status,
        ).toBe(401);
        const missing = await client.post('/account/login', { password: 'x' });
        expect(missing.status).toBe(400);
        expect(obj(missing.body).message).toContain('body.email');
      });

      it('reports who is signed in, with roles and the CSRF token', async () => {
        const reader = await h.signedIn(READER);
        const me = obj((await reader.get('/api/auth/me')).body);
        expect(me).toMatchObject({ isAuthenticated: true, email: READER.email, siteRole: 'Reader' });
        expect(me.csrfToken).toBe(reader.csrfToken);
        expect(obj((await h.newClient().get('/api/auth/me')).body).isAuthenticated).toBe(false);
      });

      it('ends the session on logout', async () => {
        const reader = await h.signedIn(READER);
        expect((await reader.post('/account/logout')).status).toBe(204);
        expect((await reader.get('/api/endpoints')).status).toBe(401);
      });
    });

    describe('endpoints', () => {
      it('lists endpoints with status counts', async () => {
        const rows = list((await h.admin.get('/api/endpoints')).body);
        const erp = rows.find((r) => r.endpointId === ERP)!;
        expect(erp).toMatchObject({ status: 'Failed', failedCount: 2, deferredCount: 2, pendingCount: 2 });
        expect(rows.find((r) => r.endpointId === 'Crm')).toMatchObject({ status: 'Healthy' });
      });

      it('shows one endpoint (ids compare case-insensitively) and 404s an unknown one', async () => {
        const details = obj((await h.admin.get('/api/endpoints/erp')).body);
        expect(obj(details.endpoint).endpointId).toBe(ERP);
        expect(details.consumes).toEqual(['CustomerChanged']);
        const missing = await h.admin.get('/api/endpoints/Nope');
        expect(missing.status).toBe(404);
        expect(obj(missing.body).message).toContain("'Nope'");
      });

      it('lists blocked sessions and the events waiting behind them', async () => {
        const sessions = list((await h.admin.get(`/api/endpoints/${ERP}/blocked-sessions`)).body);
        expect(sessions.find((s) => s.sessionId === BLOCKED_SESSION)).toMatchObject({
          blockingEventId: FAILED_EVENT,
          deferredCount: 2,
        });
        const blocked = obj(
          (await h.admin.get(`/api/endpoints/${ERP}/sessions/${BLOCKED_SESSION}/blocked?take=10`)).body,
        );
        expect(blocked.total).toBe(2);
        expect(
          list(blocked.items)
            .map((i) => i.eventId)
            .sort(),
        ).toEqual([...DEFERRED_EVENTS].sort());
        const batch = list(
          (
            await h.admin.post(`/api/endpoints/${ERP}/sessions/batch`, {
              sessionIds: [BLOCKED_SESSION, 'none'],
            })
          ).body,
        );
        expect(batch.map((b) => (b.deferredEvents as string[]).length)).toEqual([2, 0]);
      });

      it('rejects a bad paging parameter with 400 naming it', async () => {
        const result = await h.admin.get(`/api/endpoints/${ERP}/sessions/${BLOCKED_SESSION}/blocked?take=0`);
        expect(result.status).toBe(400);
        expect(obj(result.body).message).toContain('query.take');
      });
    });

    describe('events', () => {
      it('filters events by status with paging', async () => {
        const page = obj((await h.admin.get(`/api/endpoints/${ERP}/events?status=Failed&pageSize=1`)).body);
        expect(list(page.events)).toHaveLength(1);
        expect(page.continuationToken).not.toBeNull();
        const next = obj(
          (
            await h.admin.get(
              `/api/endpoints/${ERP}/events?status=Failed&pageSize=1&continuationToken=${encodeURIComponent(String(page.continuationToken))}`,
            )
          ).body,
        );
        const ids = [...list(page.events), ...list(next.events)].map((e) => e.eventId).sort();
        expect(ids).toEqual([FAILED_EVENT, OTHER_FAILED_EVENT].sort());
      });

      it('rejects an unknown status with 400 naming query.status', async () => {
        const result = await h.admin.get(`/api/endpoints/${ERP}/events?status=Exploded`);
        expect(result.status).toBe(400);
        expect(obj(result.body).message).toContain('query.status');
      });

      it('shows an event with its payload, allowed actions and blocked count; 404 for a missing one', async () => {
        const details = obj((await h.admin.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}`)).body);
        expect(obj(details.event)).toMatchObject({ status: 'Failed', sessionId: BLOCKED_SESSION });
        expect(JSON.parse(String(details.payload))).toEqual({
          customerId: BLOCKED_SESSION,
          name: 'Customer cust-1',
        });
        expect(details.allowedActions).toContain('resubmit');
        expect(details.blockedCount).toBe(2);
        expect((await h.admin.get(`/api/endpoints/${ERP}/events/no-such-event`)).status).toBe(404);
      });

      it('returns the history newest first', async () => {
        const history = list(
          (await h.admin.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/history`)).body,
        );
        expect(history[0]).toMatchObject({ messageType: 'EventRequest', from: 'Crm' });
      });

      it('searches the message history site-wide', async () => {
        const result = obj((await h.admin.get(`/api/messages?eventId=${FAILED_EVENT}`)).body);
        expect(list(result.messages).map((m) => m.eventId)).toEqual([FAILED_EVENT]);
      });
    });

    describe('actions', () => {
      it('refuses a Reader with 403 and writes exactly one access-denied audit row; nothing is sent', async () => {
        const reader = await h.signedIn(READER);
        const before = (await erpMessages()).length;
        const result = await reader.post(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit`);
        expect(result.status).toBe(403);
        expect(obj(result.body).message).toContain('Contributor');
        expect((await erpMessages()).length).toBe(before);
        const denied = (await auditsOf(OTHER_FAILED_EVENT)).filter((a) => a.accessDenied === true);
        expect(denied).toHaveLength(1);
        expect(denied[0]).toMatchObject({ auditType: 'Resubmit', auditorName: READER.email });
      });

      it('resubmits a failed event as a ResubmissionRequest to the endpoint, with one audit row', async () => {
        const contributor = await h.signedIn(CONTRIBUTOR);
        const result = await contributor.post(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/resubmit`);
        expect(result.status).toBe(200);
        const sent = (await erpMessages()).find((m) => m.messageId === obj(result.body).messageId)!;
        expect(sent.sessionId).toBe(BLOCKED_SESSION);
        expect(sent.headers).toMatchObject({
          MessageType: 'ResubmissionRequest',
          From: 'Manager',
          To: ERP,
          EventId: FAILED_EVENT,
          ParentMessageId: `${FAILED_EVENT}-m1`,
        });
        expect(JSON.parse(sent.body).eventContent.eventJson).toContain('cust-1');
        const audits = (await auditsOf(FAILED_EVENT)).filter((a) => a.auditType === 'Resubmit');
        expect(audits).toHaveLength(1);
        expect(audits[0]).toMatchObject({ accessDenied: false, auditorName: CONTRIBUTOR.email });
      });

      it('resubmits with an edited payload and rejects one that is not JSON (400 naming body.eventJson)', async () => {
        const bad = await h.admin.post(
          `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit-with-changes`,
          { eventJson: '{nope' },
        );
        expect(bad.status).toBe(400);
        expect(obj(bad.body).message).toContain('body.eventJson');
        const edited = JSON.stringify({ customerId: 'cust-4', name: 'Fixed name' });
        const ok = await h.admin.post(
          `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit-with-changes`,
          { eventJson: edited },
        );
        expect(ok.status).toBe(200);
        const sent = (await erpMessages()).find((m) => m.messageId === obj(ok.body).messageId)!;
        expect(JSON.parse(sent.body).eventContent.eventJson).toBe(edited);
      });

      it('refuses an edited payload its event type rejects (400 with field errors) and sends nothing', async () => {
        const before = (await erpMessages()).length;
        const invalid = await h.admin.post(
          `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit-with-changes`,
          { eventJson: JSON.stringify({ customerId: 'cust-4', name: 5 }) },
        );
        expect(invalid.status).toBe(400);
        const body = obj(invalid.body);
        expect(body.message).toContain("event type 'CustomerChanged'");
        expect(body.issues).toEqual([{ path: 'body.eventJson.name', message: expect.any(String) }]);
        const unknownType = await h.admin.post(
          `/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/resubmit-with-changes`,
          { eventJson: '{}', eventTypeId: 'NoSuchType' },
        );
        expect(unknownType.status).toBe(400);
        expect(obj(unknownType.body).issues).toEqual([
          { path: 'body.eventTypeId', message: "unknown event type 'NoSuchType'" },
        ]);
        expect((await erpMessages()).length).toBe(before);
      });

      it('skips a failed event with a SkipRequest; the optional comment goes into its one audit row', async () => {
        const ok = await h.admin.post(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/skip`, {
          comment: '  ERP team confirmed the customer is gone  ',
        });
        expect(ok.status).toBe(200);
        const sent = (await erpMessages()).find((m) => m.messageId === obj(ok.body).messageId)!;
        expect(sent.headers.MessageType).toBe('SkipRequest');
        const skips = (await auditsOf(OTHER_FAILED_EVENT)).filter((a) => a.auditType === 'Skip');
        expect(skips).toHaveLength(1);
        expect(JSON.parse(String(skips[0]!.data))).toEqual({
          action: 'skip',
          comment: 'ERP team confirmed the customer is gone',
        });
        const tooLong = await h.admin.post(`/api/endpoints/${ERP}/events/${OTHER_FAILED_EVENT}/skip`, {
          comment: 'x'.repeat(2001),
        });
        expect(tooLong.status).toBe(400);
        expect(obj(tooLong.body).message).toContain('body.comment');
      });

      it('answers 409 when the status does not allow the action and 404 for a missing event', async () => {
        const conflict = await h.admin.post(`/api/endpoints/${ERP}/events/${PENDING_EVENT}/resubmit`);
        expect(conflict.status).toBe(409);
        expect((await h.admin.post(`/api/endpoints/${ERP}/events/ghost/resubmit`)).status).toBe(404);
        expect((await h.admin.post('/api/endpoints/Nope/events/ghost/resubmit')).status).toBe(404);
      });

      it('completes and fails handoffs with the matching control messages', async () => {
        const noReason = await h.admin.post(`/api/endpoints/${ERP}/events/${HANDOFF_EVENT}/handoff/fail`, {});
        expect(noReason.status).toBe(400);
        expect(obj(noReason.body).message).toContain('body.reason');
        const done = await h.admin.post(`/api/endpoints/${ERP}/events/${HANDOFF_EVENT}/handoff/complete`, {
          note: 'checked by phone',
        });
        expect(done.status).toBe(200);
        const sent = (await erpMessages()).find((m) => m.messageId === obj(done.body).messageId)!;
        expect(sent.headers.MessageType).toBe('HandoffCompletedRequest');
        expect(JSON.parse(JSON.parse(sent.body).eventContent.eventJson)).toMatchObject({
          note: 'checked by phone',
        });
        const failed = await h.admin.post(`/api/endpoints/${ERP}/events/${HANDOFF_EVENT}/handoff/fail`, {
          reason: 'credit refused',
        });
        const failMessage = (await erpMessages()).find((m) => m.messageId === obj(failed.body).messageId)!;
        expect(JSON.parse(failMessage.body).errorContent.errorText).toBe('credit refused');
      });

      it('reconciles a Pending row only when its last message id still matches', async () => {
        const stale = await h.admin.post(`/api/endpoints/${ERP}/events/${PENDING_EVENT}/reconcile`, {
          expectedLastMessageId: 'other',
        });
        expect(stale.status).toBe(409);
        const ok = await h.admin.post(`/api/endpoints/${ERP}/events/${PENDING_EVENT}/reconcile`, {
          expectedLastMessageId: `${PENDING_EVENT}-m1`,
        });
        expect(ok.status).toBe(200);
        const details = obj((await h.admin.get(`/api/endpoints/${ERP}/events/${PENDING_EVENT}`)).body);
        expect(obj(details.event).status).toBe('Completed');
        expect((await auditsOf(PENDING_EVENT)).filter((a) => a.auditType === 'Reconcile')).toHaveLength(1);
      });

      it('asks for a deferred replay with a ProcessDeferredRequest on a session no failure blocks', async () => {
        const ok = await h.admin.post(`/api/endpoints/${ERP}/sessions/cust-6/reprocess-deferred`);
        expect(ok.status).toBe(200);
        const sent = (await erpMessages()).find((m) => m.messageId === obj(ok.body).messageId)!;
        expect(sent).toMatchObject({ sessionId: 'cust-6' });
        expect(sent.headers.MessageType).toBe('ProcessDeferredRequest');
      });

      it('refuses reprocess-deferred while a failed event blocks the session, naming it, and sends nothing', async () => {
        const before = (await erpMessages()).length;
        const refused = await h.admin.post(
          `/api/endpoints/${ERP}/sessions/${BLOCKED_SESSION}/reprocess-deferred`,
        );
        expect(refused.status).toBe(409);
        expect(obj(refused.body).message).toContain(`blocked by event '${FAILED_EVENT}' (Failed)`);
        expect((await erpMessages()).length).toBe(before);
      });

      it('runs a bulk resubmit in the background and reports progress', async () => {
        const started = await h.admin.post(`/api/endpoints/${ERP}/bulk`, {
          action: 'resubmit',
          eventIds: [FAILED_EVENT, 'ghost'],
        });
        expect(started.status).toBe(202);
        const jobId = String(obj(started.body).jobId);
        let job: Json = {};
        for (let i = 0; i < 50 && job.done !== true; i++) {
          job = obj((await h.admin.get(`/api/bulk-jobs/${jobId}`)).body);
          if (job.done !== true) await new Promise((r) => setImmediate(r));
        }
        expect(job).toMatchObject({ done: true, total: 2, processed: 2, succeeded: 1, failed: 1 });
        expect(String(list(job.errors)[0]!.message)).toContain('ghost');
        const empty = await h.admin.post(`/api/endpoints/${ERP}/bulk`, { action: 'resubmit', eventIds: [] });
        expect(empty.status).toBe(400);
        expect(obj(empty.body).message).toContain('body.eventIds');
      });

      it('deletes an event row', async () => {
        const eventId = DEFERRED_EVENTS[1];
        expect((await h.admin.delete(`/api/endpoints/${ERP}/events/${eventId}`)).status).toBe(200);
        expect((await h.admin.get(`/api/endpoints/${ERP}/events/${eventId}`)).status).toBe(404);
      });
    });

    describe('comments', () => {
      const commentsUrl = (eventId: string, endpointId = ERP) =>
        `/api/endpoints/${endpointId}/events/${eventId}/comments`;
      const commentRows = async (eventId: string) =>
        (await auditsOf(eventId)).filter((a) => a.auditType === 'Comment');

      it('adds a Contributor comment as exactly one Comment audit row, trimmed', async () => {
        const contributor = await h.signedIn(CONTRIBUTOR);
        const before = (await erpMessages()).length;
        const result = await contributor.post(commentsUrl(HANDOFF_EVENT), {
          comment: ' called the ERP team, they restart the credit check ',
        });
        expect(result.status).toBe(200);
        expect(obj(result.body)).toMatchObject({
          action: 'comment',
          eventId: HANDOFF_EVENT,
          messageId: null,
        });
        expect((await erpMessages()).length).toBe(before);
        const rows = await commentRows(HANDOFF_EVENT);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ auditorName: CONTRIBUTOR.email, accessDenied: false });
        expect(JSON.parse(String(rows[0]!.data))).toEqual({
          action: 'comment',
          comment: 'called the ERP team, they restart the credit check',
        });
      });

      it('rejects an empty, blank, missing or oversized comment with 400 naming body.comment, without a row', async () => {
        const before = (await commentRows(DEFERRED_EVENTS[0])).length;
        for (const body of [{ comment: '' }, { comment: '   ' }, {}, { comment: 'x'.repeat(2001) }]) {
          const result = await h.admin.post(commentsUrl(DEFERRED_EVENTS[0]), body);
          expect(result.status).toBe(400);
          expect(obj(result.body).message).toContain('body.comment');
        }
        expect(await commentRows(DEFERRED_EVENTS[0])).toHaveLength(before);
        const longest = await h.admin.post(commentsUrl(DEFERRED_EVENTS[0]), { comment: 'y'.repeat(2000) });
        expect(longest.status).toBe(200);
      });

      it('answers 401 without a session', async () => {
        const result = await h.newClient().post(commentsUrl(HANDOFF_EVENT), { comment: 'anonymous' });
        expect(result.status).toBe(401);
      });

      it('refuses a Reader with 403 and writes exactly one access-denied Comment row', async () => {
        const reader = await h.signedIn(READER);
        const result = await reader.post(commentsUrl(PENDING_EVENT), { comment: 'readers cannot write' });
        expect(result.status).toBe(403);
        expect(obj(result.body).message).toContain('Contributor');
        const rows = await commentRows(PENDING_EVENT);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ auditorName: READER.email, accessDenied: true });
      });

      it('answers 404 for a missing event or endpoint', async () => {
        const missing = await h.admin.post(commentsUrl('ghost'), { comment: 'where is it?' });
        expect(missing.status).toBe(404);
        expect(obj(missing.body).message).toContain("'ghost'");
        expect((await h.admin.post(commentsUrl('ghost', 'Nope'), { comment: 'x' })).status).toBe(404);
      });
    });

    describe('metrics, health, topology, application', () => {
      it('serves metrics for a period and rejects an unknown one', async () => {
        for (const path of ['overview', 'latency', 'timeseries', 'failed-insights']) {
          expect((await h.admin.get(`/api/metrics/${path}?period=1d`)).status).toBe(200);
        }
        const bad = await h.admin.get('/api/metrics/overview?period=2y');
        expect(bad.status).toBe(400);
        expect(obj(bad.body).message).toContain('query.period');
      });

      it('serves heartbeat, service health and topology', async () => {
        const heartbeat = list((await h.admin.get('/api/heartbeat/overview')).body);
        expect(heartbeat.map((r) => r.endpointId)).toEqual(expect.arrayContaining(['Crm', ERP]));
        expect((await h.admin.get('/api/health/services')).status).toBe(200);
        const topology = obj((await h.admin.get('/api/topology')).body);
        expect(topology.routes).toEqual([{ source: 'Crm', eventTypeId: 'CustomerChanged', target: ERP }]);
      });

      it('lets only a site Owner change heartbeat settings (denial audited)', async () => {
        const reader = await h.signedIn(READER);
        const body = { enabled: true, intervalSeconds: 60, timeoutSeconds: 10 };
        expect((await reader.put('/api/heartbeat/settings', body)).status).toBe(403);
        const ok = await h.admin.put('/api/heartbeat/settings', body);
        expect(obj(ok.body)).toMatchObject(body);
        const bad = await h.admin.put('/api/heartbeat/settings', { ...body, intervalSeconds: 1 });
        expect(obj(bad.body).message).toContain('body.intervalSeconds');
      });

      it('reports the provider and says clearly that copy-endpoint-data is not supported', async () => {
        const status = obj((await h.admin.get('/api/app/status')).body);
        expect(status).toMatchObject({
          storageProvider: h.stores.store.providerName,
          transport: 'memory',
          capabilities: { supportsCrossAccountCopy: false },
        });
        expect(obj((await h.newClient().get('/api/app/status')).body).storageProvider).toBeNull();
        const copy = await h.admin.post('/api/operations/copy-endpoint-data', {
          endpointId: ERP,
          target: 'secret-connection',
        });
        expect(copy.status).toBe(501);
        expect(obj(copy.body).message).toContain('not supported by this provider');
      });
    });

    describe('users and roles', () => {
      it('lets only a site Owner manage users', async () => {
        const reader = await h.signedIn(READER);
        expect((await reader.get('/api/users')).status).toBe(403);
        const users = list((await h.admin.get('/api/users')).body);
        expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@local', READER.email]));
        const weak = await h.admin.post('/api/users', { email: 'weak@example.test', password: 'short' });
        expect(weak.status).toBe(400);
        expect(obj(weak.body).message).toContain('body.password');
        const duplicate = await h.admin.post('/api/users', { ...READER });
        expect(duplicate.status).toBe(409);
      });

      it('grants an endpoint role that lifts a Reader to Contributor on that endpoint only', async () => {
        const created = obj(
          (await h.admin.post('/api/users', { email: 'ep@example.test', password: 'Endpoint!Pass1' })).body,
        );
        await h.admin.put(`/api/users/${created.id}/endpoint-roles/${ERP}`, { role: 'Contributor' });
        const user = await h.signedIn({ email: 'ep@example.test', password: 'Endpoint!Pass1' });
        const me = obj((await user.get('/api/auth/me')).body);
        expect(me.endpointRoles).toEqual([{ endpointId: ERP, role: 'Contributor' }]);
        expect((await user.post(`/api/endpoints/${ERP}/sessions/cust-6/reprocess-deferred`)).status).toBe(
          200,
        );
      });
    });
  });
}
