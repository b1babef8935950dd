import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManualClock, silentLogger } from '@nimbus/core';
import { InProcessStateChangeNotifier } from '@nimbus/message-store';
import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type BulkJobStore,
  createMemoryBulkJobStore,
  createSqlBulkJobStore,
  LiveUpdateHub,
} from '../src/index.js';
import { type BulkJobSpec, BulkJobs, type BulkTargetCollector } from '../src/operator/bulk-jobs.js';

const runPg = await shouldRunPostgresSuite('bulk job runner on PostgreSQL');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bulk-runner-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a store the way a WebApp instance would; a second call is a second instance over the same tables. */
type Opener = () => Promise<BulkJobStore>;

const sqliteOpener = (): Opener => {
  const filename = path.join(dir, `jobs-${Math.random().toString(36).slice(2)}.db`);
  return async () => {
    const store = createSqlBulkJobStore({ dialect: 'sqlite', filename });
    await store.initialize();
    return store;
  };
};
const postgresOpener = async (): Promise<Opener> => {
  const database = await createTemporaryDatabase('nimbus_bulk_runner');
  const opened: BulkJobStore[] = [];
  cleanups.push(async () => {
    for (const store of opened) await store.close();
    await database.drop();
  });
  return async () => {
    const store = createSqlBulkJobStore({ dialect: 'postgres', connectionString: database.url });
    await store.initialize();
    opened.push(store);
    return store;
  };
};

const targets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    endpointId: 'Erp',
    eventId: `evt-${i}`,
    sessionId: `s-${i}`,
    outcome: 'pending' as const,
    message: null,
    messageId: null,
  }));
const spec = (jobId: string): BulkJobSpec => ({
  jobId,
  action: 'resubmit',
  endpointIds: ['Erp'],
  filter: { failureSignature: 'Error: x' },
  createdBy: 'ada@example.test',
  startedBy: null,
  comment: null,
});
const instance = (store: BulkJobStore, clock: ManualClock) =>
  new BulkJobs(new LiveUpdateHub(new InProcessStateChangeNotifier()), store, clock, silentLogger);
const withCollector = (store: BulkJobStore, clock: ManualClock, collector: BulkTargetCollector) =>
  new BulkJobs(new LiveUpdateHub(new InProcessStateChangeNotifier()), store, clock, silentLogger, collector);
const never = () => new Promise<never>(() => {});

function describeRunner(name: string, opener: () => Promise<Opener>) {
  describe(`bulk job runner (${name})`, () => {
    it('cancel stops the job before its next event; the events not reached stay pending', async () => {
      const store = await (await opener())();
      const jobs = instance(store, new ManualClock());
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = 0;
      const { job, finished } = await jobs.start(spec('job-cancel'), targets(12), async (item) => {
        started += 1;
        await gate;
        return { messageId: `m-${item.eventId}` };
      });
      await expect.poll(() => started, { timeout: 10_000 }).toBe(4);
      await jobs.cancel(job);
      release();
      const result = await finished;
      // The four events already in hand finish; nothing after them is started.
      expect(result).toMatchObject({
        state: 'cancelled',
        processed: 4,
        succeeded: 4,
        remaining: 8,
        done: true,
      });
      expect(started).toBe(4);
      expect(await store.items('job-cancel', { offset: 0, limit: 50, outcome: 'pending' })).toHaveLength(8);
    });

    it('a job whose instance stopped reads interrupted; another instance resumes exactly the events left', async () => {
      const open = await opener();
      const clock = new ManualClock();
      const first = instance(await open(), clock);
      // The first instance acts on three events, then stops answering (its process is gone). Which events it
      // finished is decided by id, not by call order: its workers read the job before each event, and on
      // PostgreSQL those reads may finish out of order.
      const finishedByFirst = new Set(['evt-0', 'evt-1', 'evt-2']);
      await first.start(spec('job-resume'), targets(10), async (item) => {
        if (!finishedByFirst.has(item.eventId)) return never();
        return { messageId: `m-${item.eventId}` };
      });
      const restarted = instance(await open(), clock);
      await expect
        .poll(async () => (await restarted.get('job-resume'))?.processed, { timeout: 10_000 })
        .toBe(3);
      expect(await restarted.get('job-resume')).toMatchObject({ interrupted: false, state: 'running' });
      clock.advance(31_000);
      expect(await restarted.get('job-resume')).toMatchObject({ interrupted: true, remaining: 7 });

      const resumedOn: string[] = [];
      const resumed = await restarted.resume('job-resume', async (item) => {
        resumedOn.push(item.eventId);
        return { messageId: `m2-${item.eventId}` };
      });
      expect(resumed).not.toBeNull();
      // A third instance cannot take it over while the second holds the lease.
      expect(await instance(await open(), clock).resume('job-resume', never)).toBeNull();
      expect(await resumed!.finished).toMatchObject({
        state: 'completed',
        processed: 10,
        succeeded: 10,
        remaining: 0,
      });
      // The events the first instance had in hand when it stopped are redone; the three it finished are not.
      expect(resumedOn.sort()).toEqual(['evt-3', 'evt-4', 'evt-5', 'evt-6', 'evt-7', 'evt-8', 'evt-9']);
      const items = await restarted.items('job-resume', { offset: 0, limit: 50 });
      expect(items.map((i) => i.outcome)).toEqual(Array(10).fill('sent'));
    });

    it('a filter job is stored before it reads its events: a cancel while it reads them sends nothing; an interrupted one reads them again', async () => {
      const open = await opener();
      const clock = new ManualClock();
      const pages: ((goOn: boolean) => void)[] = [];
      // Each page of the snapshot waits for the test; the job asks whether to go on after each.
      const collector: BulkTargetCollector = async (_job, goOn) => {
        const found = targets(6);
        for (let page = 1; page <= 3; page++) {
          await new Promise<boolean>((resolve) => pages.push(resolve));
          if (!(await goOn(page * 2))) return null;
        }
        return found;
      };
      const first = withCollector(await open(), clock, collector);
      const sent: string[] = [];
      const run = async (item: { eventId: string }) => {
        sent.push(item.eventId);
        return { messageId: `m-${item.eventId}` };
      };
      const { job, finished } = await first.start(spec('job-collect-cancel'), 'collect', run);
      expect(job).toMatchObject({ state: 'running', total: 0, collecting: true });
      await expect.poll(() => pages.length, { timeout: 10_000 }).toBe(1);
      await first.cancel(job);
      pages[0]!(true);
      expect(await finished).toMatchObject({ state: 'cancelled', total: 0, processed: 0, collecting: false });
      expect(sent).toEqual([]);
      expect(pages).toHaveLength(1);

      // Interrupted while reading: another instance claims it and reads the events again, then acts on them.
      pages.length = 0;
      const stopping = withCollector(await open(), clock, collector);
      await stopping.start(spec('job-collect-resume'), 'collect', run);
      await expect.poll(() => pages.length, { timeout: 10_000 }).toBe(1);
      const stopped = stopping.stop();
      pages[0]!(true);
      await stopped;
      const next = withCollector(await open(), clock, collector);
      expect(await next.get('job-collect-resume')).toMatchObject({ interrupted: true, collecting: true });
      const resumed = await next.resume('job-collect-resume', run);
      for (let page = 1; page <= 3; page++) {
        await expect.poll(() => pages.length, { timeout: 10_000 }).toBe(page + 1);
        pages[page]!(true);
      }
      expect(await resumed!.finished).toMatchObject({
        state: 'completed',
        total: 6,
        processed: 6,
        succeeded: 6,
      });
      expect(sent.sort()).toEqual(targets(6).map((t) => t.eventId));
    });
  });
}

describe('bulk job runner: bounded chunks', () => {
  it('reads the events it acts on at most 200 at a time, and shows progress from the first chunk', async () => {
    const store = createMemoryBulkJobStore();
    const reads: number[] = [];
    const counting: BulkJobStore = {
      ...store,
      items: (jobId, page) => {
        if (page.outcome === 'pending') reads.push(page.limit);
        return store.items(jobId, page);
      },
    };
    const jobs = instance(counting, new ManualClock());
    let processedAtSecondChunk = -1;
    const { finished } = await jobs.start(spec('job-chunks'), targets(450), async (item) => {
      if (reads.length === 2 && processedAtSecondChunk < 0)
        processedAtSecondChunk = (await store.get('job-chunks'))?.processed ?? -1;
      return { messageId: `m-${item.eventId}` };
    });
    expect(await finished).toMatchObject({ state: 'completed', processed: 450 });
    expect(reads.every((limit) => limit <= 200)).toBe(true);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    // The first chunk's progress was stored before the second chunk was read.
    expect(processedAtSecondChunk).toBeGreaterThanOrEqual(200);
  });
});

describeRunner('memory', async () => {
  const store = createMemoryBulkJobStore();
  return async () => store;
});
describeRunner('SQLite', async () => sqliteOpener());
describe.runIf(runPg)('on PostgreSQL', () => describeRunner('PostgreSQL', postgresOpener));

describe('bulk job tables from an older WebApp', () => {
  it('get the new columns when opened, and their jobs read as before (one endpoint, done = completed)', async () => {
    const filename = path.join(dir, 'old-jobs.db');
    const { openSqliteDatabase } = await import('@nimbus/sql');
    const old = openSqliteDatabase(filename);
    old.exec(`create table nimbus_bulk_jobs (job_id text primary key, action text not null,
      endpoint_id text not null, total integer not null, processed integer not null, succeeded integer not null,
      failed integer not null, errors_json text not null, done integer not null, owner text not null,
      lease_until integer not null, created_at integer not null)`);
    old.exec(
      `insert into nimbus_bulk_jobs values ('old-1', 'skip', 'Erp', 2, 2, 1, 1, '[]', 1, 'gone', 0, 5)`,
    );
    old.close();
    const store = createSqlBulkJobStore({ dialect: 'sqlite', filename });
    await store.initialize();
    cleanups.push(() => store.close());
    expect(await store.get('old-1')).toMatchObject({
      endpointIds: ['Erp'],
      state: 'completed',
      refused: 0,
      succeeded: 1,
      failed: 1,
      createdBy: '',
      startedBy: null,
      filter: {},
    });
    expect(await store.items('old-1', { offset: 0, limit: 10 })).toEqual([]);
  });
});
