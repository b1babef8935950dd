import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { seedVatFailures } from './support/seed-vat-failures.js';
import { type SqliteStack, startSqliteStack } from './support/sqlite-stack.js';

const EVENTS = 10_000;
const WAIT = { timeout: 60_000 };
/** How long the events page is measured while the job runs (then the operator cancels it). */
const MEASURE_MS = 25_000;
requireChromium('bulk job at scale browser test');

interface Job {
  jobId: string;
  processed: number;
  total: number;
  state: string;
  done: boolean;
  interrupted: boolean;
  collecting: boolean;
}

/**
 * Before bulk jobs yielded, every read waited for the whole job (16.5 s for 300 events). The issue's goal (#26):
 * the events page answers with a p95 under 500 ms while the job runs; the test holds it and prints the figure.
 */
const GOAL_P95_MS = 500;

const p95 = (samples: readonly number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
};

/**
 * A 10 000-event failure-group retry on the default stack (SQLite store, SQLite transport, Resolver and Erp
 * endpoint in this process, SQLite bulk-job tables): the events API the endpoint page reads keeps answering
 * (p95 under 500 ms, measured from here while the job runs), progress is live from the first events, Cancel
 * stops it mid-way, and a job running when the WebApp restarts is resumed by the new WebApp by itself.
 */
describe.runIf(hasChromium)('a 10 000-event bulk job on SQLite in a real browser', () => {
  let stack: SqliteStack;
  let context: BrowserContext;
  let page: Page;
  let admin: ApiClient;
  let signature = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bulk-scale-'));

  beforeAll(async () => {
    buildUi(path.join(tmp, 'dist'));
    stack = await startSqliteStack({ uiDistDir: path.join(tmp, 'dist') });
    await seedVatFailures(stack.store, EVENTS);
    admin = new ApiClient(stack.url);
    await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
    const groups = (await admin.get('/api/failure-groups')).body as {
      signature: string;
      eventCount: number;
    }[];
    expect(groups.map((g) => g.eventCount)).toEqual([EVENTS]);
    signature = groups[0]!.signature;
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 600_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('starts at once, keeps the events page answering while it runs (p95 under 500 ms), shows live progress, and cancels mid-way', async () => {
    await page.goto(`${stack.url}/failure-groups`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/failure-groups$/, WAIT);
    const group = page.locator('[data-testid=failure-groups] tr[data-signature]', {
      hasText: 'not registered',
    });
    await expect.poll(() => group.locator('[data-testid=group-events]').textContent(), WAIT).toBe('10000');
    await group.locator('button', { hasText: 'Resubmit all' }).click();
    const confirmedAt = Date.now();
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/bulk-jobs',
      WAIT,
    );
    await page.click('[data-testid=confirm-group-action] button:text-is("Confirm resubmit of 10000 events")');
    // The start answers before the job has read the events it acts on (it used to wait for all 10 000 first).
    const startAnswer = await answered;
    const startMs = Date.now() - confirmedAt;
    expect(startAnswer.status()).toBe(202);
    expect(((await startAnswer.json()) as Job).collecting).toBe(true);
    // The group page re-renders with every live update while the job runs: follow the link's address.
    const href = await page.locator('a:text-is("Job details")').getAttribute('href', WAIT);
    await page.goto(`${stack.url}${href}`);
    await page.waitForURL(/\/bulk-jobs\/[^/]+$/, WAIT);
    const jobId = decodeURIComponent(page.url().split('/').pop() ?? '');
    const progress = page.locator('[data-testid=bulk-progress]');

    // Live from the first events: the page shows a count above zero and below the total, soon.
    await expect
      .poll(async () => Number(/(\d+) of 10000/.exec((await progress.textContent()) ?? '')?.[1] ?? 0), WAIT)
      .toBeGreaterThan(0);
    const firstProgressMs = Date.now() - confirmedAt;
    expect(await progress.getAttribute('data-state')).toBe('running');

    // The events API the endpoint page reads, measured from here while the job runs.
    const samples: number[] = [];
    const shown: number[] = [];
    const until = Date.now() + MEASURE_MS;
    while (Date.now() < until) {
      const started = performance.now();
      const events = await admin.get('/api/endpoints/Erp/events?pageSize=50&status=Failed');
      samples.push(performance.now() - started);
      expect(events.status).toBe(200);
      shown.push(Number(/(\d+) of 10000/.exec((await progress.textContent()) ?? '')?.[1] ?? 0));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const eventsP95 = p95(samples);
    console.log(
      `bulk job on SQLite: started (202) ${startMs} ms and first progress ${firstProgressMs} ms after confirming; events API p95 ${eventsP95.toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms over ${samples.length} reads (goal ${GOAL_P95_MS} ms: ${eventsP95 < GOAL_P95_MS ? 'met' : 'NOT met'}); ${shown.at(-1)} of ${EVENTS} done in ${MEASURE_MS} ms`,
    );
    expect(eventsP95).toBeLessThan(GOAL_P95_MS);
    // The page's count moved while we measured (live, not only at the end).
    expect(new Set(shown).size).toBeGreaterThan(3);
    expect(shown.at(-1)).toBeLessThan(EVENTS);

    await page.click('button:text-is("Cancel job")');
    await expect.poll(() => progress.getAttribute('data-state'), WAIT).toBe('cancelled');
    const cancelled = (await admin.get(`/api/bulk-jobs/${jobId}`)).body as Job;
    expect(cancelled).toMatchObject({ state: 'cancelled', done: true });
    expect(cancelled.processed).toBeLessThan(EVENTS);
    // Nothing after the cancel: the count stays where it stopped.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(((await admin.get(`/api/bulk-jobs/${jobId}`)).body as Job).processed).toBe(cancelled.processed);
  }, 600_000);

  it('a job running when the WebApp restarts is resumed by the new WebApp by itself', async () => {
    const started = await admin.post('/api/bulk-jobs', {
      action: 'resubmit',
      endpointIds: ['Erp'],
      filter: { failureSignature: signature },
    });
    expect(started.status).toBe(202);
    const { jobId } = started.body as Job;
    await expect
      .poll(async () => ((await admin.get(`/api/bulk-jobs/${jobId}`)).body as Job).processed, WAIT)
      .toBeGreaterThan(20);
    const { total } = (await admin.get(`/api/bulk-jobs/${jobId}`)).body as Job;
    expect(total).toBe(EVENTS);

    const url = await stack.restartWebApp();
    const next = new ApiClient(url);
    await next.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
    const atRestart = ((await next.get(`/api/bulk-jobs/${jobId}`)).body as Job).processed;
    expect(atRestart).toBeLessThan(total);
    // The new WebApp goes on with it (not only "interrupted"): running, no resume needed, the count growing.
    await expect
      .poll(async () => ((await next.get(`/api/bulk-jobs/${jobId}`)).body as Job).processed, WAIT)
      .toBeGreaterThan(atRestart + 20);
    const resumed = (await next.get(`/api/bulk-jobs/${jobId}`)).body as Job;
    expect(resumed).toMatchObject({ state: 'running', interrupted: false });
    const audits = (await next.get(`/api/audits?eventId=${encodeURIComponent(`bulk-job:${jobId}`)}`))
      .body as { audits: { data: string | null }[] };
    expect(audits.audits.some((r) => r.data?.includes('"automatic":true'))).toBe(true);
    expect((await next.post(`/api/bulk-jobs/${jobId}/cancel`)).status).toBe(202);
    await expect
      .poll(async () => ((await next.get(`/api/bulk-jobs/${jobId}`)).body as Job).state, WAIT)
      .toBe('cancelled');
  }, 600_000);
});
