import { MessageAuditType } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './harness.js';
import { BLOCKED_SESSION, ERP, FAILED_EVENT, PENDING_EVENT, seedFailedRows } from './seed.js';
import type { StoreFactory } from './store-factories.js';

type Json = Record<string, unknown>;
const obj = (value: unknown) => value as Json;
const list = (value: unknown) => value as Json[];

const VAT_GROUP = 'Error: ERP refused customer <id>: VAT number <value> is malformed';
const vatError = (eventId: string) =>
  `ERP refused customer ${eventId}: VAT number 'NL-${eventId}' is malformed`;

/** Failure groups and filter bulk jobs over the API, run against any store factory. */
export function describeBulkJobsApi(factory: StoreFactory): void {
  describe(`failure groups and bulk jobs (${factory.name})`, () => {
    let h: Harness;
    const erpIds = Array.from({ length: 6 }, (_, i) => `vat-erp-${i}`);
    const crmIds = Array.from({ length: 4 }, (_, i) => `vat-crm-${i}`);
    // Two events per session on Erp (sessions s0…s2), one per session on Crm (s0…s3).
    const sessionOf = (_id: string, i: number) => `s${Math.floor(i / 2)}`;

    beforeAll(async () => {
      h = await startHarness(factory);
      await seedFailedRows(h.stores.store, ERP, erpIds, { sessionOf, errorTextOf: vatError });
      await seedFailedRows(h.stores.store, 'Crm', crmIds, {
        sessionOf: (_id, i) => `s${i}`,
        errorTextOf: vatError,
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    const waitForJob = async (jobId: string): Promise<Json> => {
      for (let i = 0; i < 400; i++) {
        const job = obj((await h.admin.get(`/api/bulk-jobs/${jobId}`)).body);
        if (job.done === true) return job;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`bulk job ${jobId} did not finish`);
    };
    const sentTo = async (endpointId: string) =>
      (await h.transport.peek(endpointId, { max: 500 })).filter(
        (m) => m.headers.MessageType === 'ResubmissionRequest',
      );

    it('groups the failures of one cause across endpoints, and per endpoint', async () => {
      const across = list((await h.admin.get('/api/failure-groups')).body);
      const vat = across.find((g) => g.signature === VAT_GROUP);
      expect(vat).toMatchObject({
        errorType: 'Error',
        endpointIds: ['Crm', ERP],
        eventCount: 10,
        // Session ids s0…s3: s0–s2 exist on both endpoints and count once.
        sessionCount: 4,
        failedCount: 10,
        eventTypeIds: ['CustomerChanged'],
        exampleErrorText: expect.stringMatching(
          /^ERP refused customer vat-crm-\d: VAT number 'NL-vat-crm-\d' is malformed$/,
        ),
      });
      expect(Date.parse(String(vat!.firstSeen))).toBeLessThanOrEqual(Date.parse(String(vat!.lastSeen)));
      const erp = list((await h.admin.get(`/api/endpoints/${ERP}/failure-groups`)).body);
      expect(erp.find((g) => g.signature === VAT_GROUP)).toMatchObject({
        endpointIds: [ERP],
        eventCount: 6,
        sessionCount: 3,
      });
      // The seeded "ERP said no: customer locked" failures are a group of their own.
      expect(erp.map((g) => g.normalisedMessage)).toContain('ERP said no: customer locked');
      const reader = await h.signedIn(READER);
      expect((await reader.get(`/api/endpoints/${ERP}/failure-groups`)).status).toBe(200);
    });

    it('says why at a glance: the blocking error, since when and how many are parked; the producer and group', async () => {
      const sessions = list((await h.admin.get(`/api/endpoints/${ERP}/blocked-sessions`)).body);
      const blocked = sessions.find((s) => s.sessionId === BLOCKED_SESSION);
      expect(blocked).toMatchObject({
        blockingEventId: FAILED_EVENT,
        blockingErrorType: 'Error',
        blockingErrorText: 'ERP said no: customer locked',
        deferredCount: 2,
      });
      expect(Number(blocked!.blockedForMs)).toBeGreaterThanOrEqual(0);
      expect(Date.parse(String(blocked!.blockedSince))).toBeLessThanOrEqual(Date.now());
      const details = obj((await h.admin.get(`/api/endpoints/${ERP}/events/${FAILED_EVENT}`)).body);
      expect(details).toMatchObject({
        producer: 'Crm',
        failureSignature: 'Error: ERP said no: customer locked',
        originalPayload: JSON.stringify({ customerId: BLOCKED_SESSION, name: `Customer ${BLOCKED_SESSION}` }),
      });
      expect(obj(details.event).errorContent).toMatchObject({
        errorType: 'Error',
        errorText: 'ERP said no: customer locked',
      });
    });

    it('refuses a filter job to a Reader (one denied audit row) and names bad input', async () => {
      const reader = await h.signedIn(READER);
      const body = { action: 'resubmit', endpointIds: [ERP], filter: { failureSignature: VAT_GROUP } };
      expect((await reader.post('/api/bulk-jobs', body)).status).toBe(403);
      const denied = await h.stores.store.searchAudits({
        filter: { auditorName: READER.email },
        maxItems: 50,
      });
      expect(
        denied.audits.filter((a) => a.audit.accessDenied && a.audit.data?.includes(VAT_GROUP)),
      ).toHaveLength(1);
      const bad = await h.admin.post('/api/bulk-jobs', { ...body, filter: { statuses: ['Completed'] } });
      expect(bad.status).toBe(400);
      expect(obj(bad.body).message).toContain('body.filter.statuses');
      const unknown = await h.admin.post('/api/bulk-jobs', { ...body, endpointIds: ['Nope'] });
      expect(unknown.status).toBe(404);
    });

    it('resubmits a whole failure group across endpoints server-side: progress, one audit row per event, history', async () => {
      const contributor = await h.signedIn(CONTRIBUTOR);
      const started = await contributor.post('/api/bulk-jobs', {
        action: 'resubmit',
        endpointIds: [ERP, 'Crm'],
        filter: { failureSignature: VAT_GROUP },
        comment: 'VAT registry is back',
      });
      expect(started.status).toBe(202);
      const jobId = String(obj(started.body).jobId);
      // The start answers before the job has read the events it acts on (total 0, collecting).
      expect(obj(started.body)).toMatchObject({
        total: 0,
        collecting: true,
        state: 'running',
        createdBy: CONTRIBUTOR.email,
      });
      const job = await waitForJob(jobId);
      expect(job).toMatchObject({
        state: 'completed',
        total: 10,
        processed: 10,
        succeeded: 10,
        refused: 0,
        failed: 0,
        remaining: 0,
        endpointIds: [ERP, 'Crm'],
        filter: { failureSignature: VAT_GROUP },
        comment: 'VAT registry is back',
      });
      const resubmitted = [...(await sentTo(ERP)), ...(await sentTo('Crm'))].map((m) => m.headers.EventId);
      expect(resubmitted.filter((id) => String(id).startsWith('vat-')).sort()).toEqual(
        [...erpIds, ...crmIds].sort(),
      );
      const items = obj((await h.admin.get(`/api/bulk-jobs/${jobId}/items?limit=50`)).body);
      expect(list(items.items).map((i) => i.outcome)).toEqual(Array(10).fill('sent'));
      // Each event's own audit row names the job; the job's start is one more row.
      const rows = (await h.admin.get(`/api/endpoints/${ERP}/events/${erpIds[0]}/audits`)).body as Json[];
      const resubmit = rows.find((a) => a.auditType === 'Resubmit');
      expect(JSON.parse(String(resubmit!.data))).toMatchObject({
        comment: 'VAT registry is back',
        bulkJobId: jobId,
      });
      const start = await h.stores.store.searchAudits({
        filter: { eventId: `bulk-job:${jobId}` },
        maxItems: 10,
      });
      expect(start.audits.map((a) => JSON.parse(a.audit.data ?? '{}').action)).toEqual(['bulkResubmit']);
      const history = list((await contributor.get('/api/bulk-jobs')).body);
      expect(history[0]).toMatchObject({ jobId, createdBy: CONTRIBUTOR.email, state: 'completed' });
    });

    it('reports a refusal per event as refused (reason): by the WebApp at once, by the engine once it answers', async () => {
      const started = await h.admin.post(`/api/endpoints/${ERP}/bulk`, {
        action: 'skip',
        eventIds: ['evt-failed-4', PENDING_EVENT, 'ghost'],
      });
      const jobId = String(obj(started.body).jobId);
      const job = await waitForJob(jobId);
      expect(job).toMatchObject({ processed: 3, succeeded: 1, refused: 1, failed: 1 });
      const items = list(obj((await h.admin.get(`/api/bulk-jobs/${jobId}/items`)).body).items);
      expect(items.map((i) => [i.eventId, i.outcome])).toEqual([
        ['evt-failed-4', 'sent'],
        [PENDING_EVENT, 'refused'],
        ['ghost', 'failed'],
      ]);
      expect(String(items[1]!.message)).toContain('is Pending');
      // Events run a few at a time, so the first problems are listed in the order they happened.
      expect(
        list(job.errors)
          .map((e) => String(e.message))
          .sort(),
      ).toEqual([
        expect.stringMatching(/^failed \(Event 'ghost' not found/),
        expect.stringMatching(/^refused \(Event 'evt-pending-6' is Pending/),
      ]);
      // The engine refuses the sent skip: the Resolver records a Refused row naming the control message.
      await h.stores.store.storeMessageAudit({
        eventId: 'evt-failed-4',
        endpointId: ERP,
        audit: {
          auditorName: ERP,
          auditTimestamp: new Date(),
          auditType: MessageAuditType.Refused,
          comment: 'The event no longer awaits this request.',
          data: String(items[0]!.messageId),
        },
      });
      const settled = obj((await h.admin.get(`/api/bulk-jobs/${jobId}/items`)).body);
      expect(list(settled.items)[0]).toMatchObject({
        outcome: 'refused',
        message: 'The event no longer awaits this request.',
      });
      expect(obj(settled.job)).toMatchObject({ succeeded: 0, refused: 2, failed: 1 });
    });

    it('cancelling or resuming a finished job is a conflict; an unknown job is 404', async () => {
      const started = await h.admin.post(`/api/endpoints/${ERP}/bulk`, {
        action: 'skip',
        eventIds: ['ghost-2'],
      });
      const jobId = String(obj(started.body).jobId);
      await waitForJob(jobId);
      expect((await h.admin.post(`/api/bulk-jobs/${jobId}/cancel`)).status).toBe(409);
      expect((await h.admin.post(`/api/bulk-jobs/${jobId}/resume`)).status).toBe(409);
      expect((await h.admin.post('/api/bulk-jobs/nope/cancel')).status).toBe(404);
      const reader = await h.signedIn(READER);
      expect((await reader.post(`/api/bulk-jobs/${jobId}/cancel`)).status).toBe(403);
    });
  });
}
