import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishRequest } from '@nimbus/core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { sqliteStores } from './support/store-factories.js';

const WAIT = { timeout: 15_000 };
const EVENTS = Array.from({ length: 12 }, (_, i) => `wh-${String(i).padStart(2, '0')}`);
/** Sends that go through before the transport starts holding them: the job is running when cancelled. */
const SENT_BEFORE_HOLD = 2;
requireChromium('bulk job cancel browser test');

/**
 * Cancelling a running bulk job in real chromium, over the real WebApp and a SQLite store. The transport
 * holds every send after the first two, so the job is provably mid-way when the operator cancels; released,
 * the sends already under way finish and the job stops before the next event.
 */
describe.runIf(hasChromium)('cancelling a running bulk job in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bulk-cancel-'));
  const held: (() => void)[] = [];
  let sends = 0;

  beforeAll(async () => {
    buildUi(path.join(tmp, 'dist'));
    h = await startHarness(sqliteStores, { uiDistDir: path.join(tmp, 'dist') });
    await seedFailedRows(h.stores.store, 'Crm', EVENTS, {
      errorTextOf: (_id, i) => `Warehouse ${i + 10} is offline`,
    });
    const publish = h.transport.publish.bind(h.transport);
    h.transport.publish = async (requests: readonly PublishRequest[]) => {
      sends += 1;
      if (sends > SENT_BEFORE_HOLD) await new Promise<void>((release) => held.push(release));
      return publish(requests);
    };
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    for (const release of held.splice(0)) release();
    await context?.close();
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a cancelled job stops before its next event and ends as cancelled with its counts', async () => {
    await page.goto(`${h.url}/failure-groups`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/failure-groups$/, WAIT);
    const group = page.locator('[data-testid=failure-groups] tr[data-signature]', {
      hasText: 'is offline',
    });
    await expect.poll(() => group.locator('[data-testid=group-events]').textContent(), WAIT).toBe('12');
    await group.locator('button', { hasText: 'Skip all' }).click();
    await page.click('[data-testid=confirm-group-action] button:text-is("Confirm skip of 12 events")');
    await page.click('a:text-is("Job details")');
    await page.waitForURL(/\/bulk-jobs\/[^/]+$/, WAIT);
    const jobId = decodeURIComponent(page.url().split('/').pop() ?? '');

    // Running, and held: two events done, the next ones waiting on the transport.
    const progress = page.locator('[data-testid=bulk-progress]');
    await expect.poll(() => progress.textContent(), WAIT).toContain(`${SENT_BEFORE_HOLD} of 12`);
    expect(await progress.getAttribute('data-state')).toBe('running');
    // Every worker of the job (four) is now waiting on the transport.
    await expect.poll(() => held.length, WAIT).toBe(4);

    await page.click('button:text-is("Cancel job")');
    await page.locator('.notice', { hasText: 'Cancel requested' }).waitFor(WAIT);
    await expect.poll(() => page.locator('[data-testid=bulk-state]').textContent(), WAIT).toBe('cancelling');
    // The sends under way when the operator cancelled still finish; nothing after them starts.
    const underWay = held.length;
    for (const release of held.splice(0)) release();

    await expect.poll(() => progress.getAttribute('data-state'), WAIT).toBe('cancelled');
    const processed = SENT_BEFORE_HOLD + underWay;
    const remaining = EVENTS.length - processed;
    expect(remaining).toBeGreaterThan(0);
    expect(await progress.textContent()).toContain(`${processed} of 12`);
    expect(await progress.textContent()).toContain(
      `${processed} sent · 0 refused · 0 failed · ${remaining} remaining`,
    );
    expect(await page.locator('[data-testid=bulk-state]').textContent()).toBe('cancelled');
    expect(await page.locator('button:text-is("Cancel job")').count()).toBe(0);
    expect(sends).toBe(processed);
    const skips = (await h.transport.peek('Crm', { max: 100 })).filter(
      (m) => m.headers.MessageType === 'SkipRequest',
    );
    expect(skips).toHaveLength(processed);
    await expect
      .poll(() => page.locator('[data-testid=bulk-items] tr[data-outcome=pending]').count(), WAIT)
      .toBe(remaining);

    // The history says the same.
    await page.click('a:text-is("← Bulk operations")');
    const row = page.locator(`[data-testid=bulk-jobs] tr[data-job-id="${jobId}"]`);
    await row.locator('[data-testid=job-state]', { hasText: 'cancelled' }).waitFor(WAIT);
    expect(await row.textContent()).toContain(`${processed} sent, 0 refused, 0 failed of 12`);
  }, 60_000);
});
