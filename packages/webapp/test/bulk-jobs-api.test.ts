import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe, expect, it } from 'vitest';
import { createMemoryBulkJobStore } from '../src/index.js';
import { describeBulkJobsApi } from './support/bulk-suite.js';
import { startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { cosmosStores, memoryStores, postgresStores, sqliteStores } from './support/store-factories.js';

const runPg = await shouldRunPostgresSuite('failure groups and bulk jobs on PostgreSQL');
describeBulkJobsApi(memoryStores);
describeBulkJobsApi(sqliteStores);
describeBulkJobsApi(cosmosStores);
describe.runIf(runPg)('on PostgreSQL', () => describeBulkJobsApi(postgresStores));

describe('an interrupted bulk job over the API', () => {
  it('reads interrupted after its instance stopped, and POST …/resume acts on exactly the events left, audited', async () => {
    const bulkJobStore = createMemoryBulkJobStore();
    const h = await startHarness(memoryStores, { webApp: { bulkJobStore } });
    try {
      const ids = ['left-1', 'left-2', 'left-3'];
      await seedFailedRows(h.stores.store, 'Erp', ids);
      // What an instance that stopped after the first event leaves behind: running, lease run out.
      const item = (eventId: string, outcome: 'sent' | 'pending') => ({
        endpointId: 'Erp',
        eventId,
        sessionId: `session-${eventId}`,
        outcome,
        message: null,
        messageId: outcome === 'sent' ? `m-${eventId}` : null,
      });
      await bulkJobStore.create(
        {
          jobId: 'job-stopped',
          action: 'skip',
          endpointId: 'Erp',
          endpointIds: ['Erp'],
          filter: { failureSignature: 'Error: seeded failure <id>' },
          createdBy: 'someone@example.test',
          startedBy: null,
          comment: null,
          total: 3,
          processed: 1,
          succeeded: 1,
          refused: 0,
          failed: 0,
          errors: [],
          state: 'running',
          cancelRequested: false,
          owner: 'a-stopped-instance',
          leaseUntil: Date.now() - 1000,
          createdAt: Date.now() - 60_000,
          finishedAt: null,
        },
        [item('left-1', 'sent'), item('left-2', 'pending'), item('left-3', 'pending')],
      );
      const before = (await h.admin.get('/api/bulk-jobs/job-stopped')).body as Record<string, unknown>;
      expect(before).toMatchObject({ interrupted: true, state: 'running', remaining: 2 });
      const resumed = await h.admin.post('/api/bulk-jobs/job-stopped/resume');
      expect(resumed.status).toBe(202);
      let job: Record<string, unknown> = {};
      for (let i = 0; i < 400 && job.done !== true; i++) {
        job = (await h.admin.get('/api/bulk-jobs/job-stopped')).body as Record<string, unknown>;
        if (job.done !== true) await new Promise((r) => setTimeout(r, 10));
      }
      expect(job).toMatchObject({ state: 'completed', processed: 3, succeeded: 3, interrupted: false });
      const skipped = (await h.transport.peek('Erp', { max: 100 }))
        .filter((m) => m.headers.MessageType === 'SkipRequest')
        .map((m) => m.headers.EventId);
      expect(skipped.sort()).toEqual(['left-2', 'left-3']);
      const rows = await h.stores.store.searchAudits({
        filter: { eventId: 'bulk-job:job-stopped' },
        maxItems: 10,
      });
      expect(rows.audits.map((a) => JSON.parse(a.audit.data ?? '{}').action)).toEqual(['resumeBulkJob']);
      expect((await h.admin.post('/api/bulk-jobs/job-stopped/resume')).status).toBe(409);
    } finally {
      await h.close();
    }
  });
});
