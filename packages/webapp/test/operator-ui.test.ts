import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResolutionStatus } from '@nimbus/message-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { CUSTOMER_SESSION, CustomerChanged, type LiveStack, startLiveStack } from './support/live-stack.js';
import { seedFailedRows } from './support/seed.js';

const WAIT = { timeout: 15_000 };
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const screenshotPath = path.resolve(packageDir, '../../docs/images/endpoint-details.png');
requireChromium('operator UI test');

/**
 * The operator's path through the real stack: Crm publishes, Erp's endpoint host fails the first event of a
 * session and parks the rest, the Resolver records it all in a SQLite store, and the WebApp shows it live.
 * The operator fixes the payload and resubmits; the page follows the engine's outcome without a reload.
 */
describe.runIf(hasChromium)('operator UI in a real browser over the real stack', () => {
  let stack: LiveStack;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-ui-'));

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    // Always a fresh build into a temp dir, so the test never runs against a stale ui/dist.
    buildUi(uiDistDir);
    stack = await startLiveStack({ uiDistDir });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1280, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows a failure live, and the edited resubmission completes the session in order', async () => {
    onTestFailed(async () => {
      // What the store holds explains most failures (for example a dead-letter reason).
      console.error('session rows at failure:', JSON.stringify(await stack.sessionRows(), null, 2));
      console.error('handled:', stack.handled);
    });
    await page.goto(`${stack.url}/endpoints/Erp`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/endpoints\/Erp$/, WAIT);
    await page.locator('.live.on').waitFor(WAIT);
    await page.locator('[data-testid=events] td.empty').waitFor(WAIT);
    await markNoReload(page);

    const vatNumbers = ['NL-BAD', 'NL123456789B01', 'NL123456789B01'];
    for (const [i, vatNumber] of vatNumbers.entries()) {
      await stack.crm.publish(CustomerChanged, { customerId: CUSTOMER_SESSION, revision: i + 1, vatNumber });
    }

    // Endpoint details, live: the first event Failed, its two session siblings parked behind it.
    const rows = page.locator('[data-testid=events] tbody tr[data-row-id]');
    await expect.poll(() => statusesOf(rows), WAIT).toEqual(['Deferred', 'Deferred', 'Failed'].sort());
    const failedId = await rows
      .filter({ has: page.locator('[data-status=Failed]') })
      .getAttribute('data-row-id');
    const deferredIds = await rows
      .filter({ has: page.locator('[data-status=Deferred]') })
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id') ?? ''));
    expect(failedId).toBeTruthy();
    await page
      .locator('[data-testid=blocked-sessions] tr', { hasText: CUSTOMER_SESSION })
      .filter({ hasText: '2 deferred' })
      .waitFor(WAIT);
    // Replaying the parked events now would let them overtake the failure: the page does not offer it.
    const blockedRow = page.locator('[data-testid=blocked-sessions] tr', { hasText: CUSTOMER_SESSION });
    await blockedRow.locator('.hint', { hasText: 'Resubmit or skip the blocking event' }).waitFor(WAIT);
    expect(await blockedRow.locator('button', { hasText: 'Reprocess deferred' }).count()).toBe(0);
    for (const text of await rows.allTextContents()) expect(text).toContain(CUSTOMER_SESSION);
    await page.locator('.tile-failed b', { hasText: /^1$/ }).waitFor(WAIT);
    await page.locator('.tile-deferred b', { hasText: /^2$/ }).waitFor(WAIT);
    await page.screenshot({ path: screenshotPath, fullPage: true });
    expect(stack.handled).toEqual(['1:NL-BAD']);

    await page.click(`[data-testid=events] a:text-is("${failedId}")`);
    await page.waitForURL(new RegExp(`/events/${failedId}$`), WAIT);
    const header = page.locator('h1 [data-status]');
    const sibling = (eventId: string) =>
      page.locator(`[data-testid=session-events] tr[data-event-id="${eventId}"] [data-status]`);
    await expect.poll(() => header.getAttribute('data-status'), WAIT).toBe('Failed');
    await page.locator('.error-block', { hasText: "VAT number 'NL-BAD' is malformed" }).waitFor(WAIT);
    for (const eventId of deferredIds) {
      await expect.poll(() => sibling(eventId).getAttribute('data-status'), WAIT).toBe('Deferred');
    }

    await page.click('button:text-is("Resubmit with changes")');
    const editor = page.locator('textarea[aria-label=payload]');
    const edited = JSON.parse(await editor.inputValue()) as { vatNumber: string };
    expect(edited).toEqual({ customerId: CUSTOMER_SESSION, revision: 1, vatNumber: 'NL-BAD' });
    // An edit the event type's schema rejects is named field by field, and Send stays disabled.
    const send = page.locator('button:text-is("Send")');
    await editor.fill(JSON.stringify({ ...edited, revision: 'one' }, null, 2));
    await page.locator('[aria-label="payload problems"] li', { hasText: 'revision' }).waitFor(WAIT);
    expect(await send.isDisabled()).toBe(true);
    await editor.fill('{ "customerId": ');
    await page.locator('[aria-label="payload problems"] li', { hasText: 'Not valid JSON' }).waitFor(WAIT);
    expect(await send.isDisabled()).toBe(true);
    await editor.fill(JSON.stringify({ ...edited, vatNumber: 'NL987654321B02' }, null, 2));
    await expect.poll(() => page.locator('[aria-label="payload problems"]').count(), WAIT).toBe(0);
    await send.click();
    await page.locator('.notice', { hasText: 'Edited payload sent' }).waitFor(WAIT);

    await expect.poll(() => header.getAttribute('data-status'), WAIT).toBe('Completed');
    for (const eventId of deferredIds) {
      await expect.poll(() => sibling(eventId).getAttribute('data-status'), WAIT).toBe('Completed');
    }
    await page.locator('[data-testid=payload]', { hasText: 'NL987654321B02' }).waitFor(WAIT);
    // The engine handled the edited payload first, then replayed the parked siblings in publish order.
    expect(stack.handled).toEqual(['1:NL-BAD', '1:NL987654321B02', '2:NL123456789B01', '3:NL123456789B01']);
    await page
      .locator('[data-testid=audits] tr', { hasText: 'ResubmitWithChanges' })
      .filter({ hasText: 'Administrator' })
      .waitFor(WAIT);
    expect(await page.locator('.actions button', { hasText: 'Resubmit' }).count()).toBe(0);
    const timeline = page.locator('ol.timeline li b');
    await expect
      .poll(() => timeline.allTextContents(), WAIT)
      .toEqual(['ResolutionResponse', 'ResubmissionRequest', 'ErrorResponse', 'EventRequest']);
    // Newest first, but numbered from the first message: the list counts down.
    expect(await page.locator('ol.timeline').getAttribute('reversed')).not.toBeNull();
    // The audit row's data reads as fields with the edited payload pretty-printed, not escaped JSON.
    const editAudit = page.locator('[data-testid=audits] tr', { hasText: 'ResubmitWithChanges' });
    await editAudit.locator('.audit-data dt', { hasText: 'eventJson' }).waitFor(WAIT);
    expect(await editAudit.locator('.audit-data pre').first().textContent()).toContain(
      '"vatNumber": "NL987654321B02"',
    );
    // Event ids are time-ordered in publish order; the rows were completed in that order too.
    const completed = await rowsOfSession(page);
    expect(completed.map((r) => r.status)).toEqual(['Completed', 'Completed', 'Completed']);
    expect(completed.map((r) => r.eventId)).toEqual([failedId, ...[...deferredIds].sort()]);
    const updatedAt = completed.map((r) => Date.parse(r.updatedAt));
    expect(updatedAt).toEqual([...updatedAt].sort((a, b) => a - b));

    await page.click('a:text-is("← Erp")');
    await page.locator('[data-testid=blocked-sessions] td.empty').waitFor(WAIT);
    // Healthy now: the list shows the session's completed events instead of looking empty.
    await page
      .locator('[data-testid=events-filter-hint]', { hasText: 'Nothing needs attention on Erp' })
      .waitFor(WAIT);
    await expect.poll(() => statusesOf(rows), WAIT).toEqual(['Completed', 'Completed', 'Completed']);
    expect(await page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload)).toBe(true);
  }, 90_000);

  it('pages through more events than one page, keeps loaded pages on live updates, and shows a comment at once', async () => {
    // More Failed rows than one page (50) on Crm, written straight into the store the Resolver uses.
    const seeded = Array.from({ length: 55 }, (_, i) => `paged-${String(i).padStart(3, '0')}`);
    await seedFailedRows(stack.store, 'Crm', seeded);
    await page.goto(`${stack.url}/endpoints/Crm`);
    await page.locator('.live.on').waitFor(WAIT);
    await markNoReload(page);
    const rows = page.locator('[data-testid=events] tbody tr[data-row-id]');
    const count = page.locator('[data-testid=paging-count]');
    await expect.poll(() => count.textContent(), WAIT).toBe('Showing 50 of 55 events');
    expect(await rows.count()).toBe(50);

    const firstShown = await rows.first().getAttribute('data-row-id');
    await page.check(`[data-testid=events] input[aria-label="select ${firstShown}"]`);
    await page.click('button:text-is("Load more")');
    await expect.poll(() => count.textContent(), WAIT).toBe('Showing 55 of 55 events');
    expect(await page.locator('button:text-is("Load more")').count()).toBe(0);
    const shownIds = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')));
    expect([...shownIds].sort()).toEqual(seeded);

    // A live update re-reads both loaded pages instead of collapsing the list to the first one.
    await seedFailedRows(stack.store, 'Crm', ['paged-late']);
    await stack.notifier.notify({ kind: 'endpoint', endpointId: 'Crm' });
    await expect.poll(() => count.textContent(), WAIT).toBe('Showing 56 of 56 events');
    expect(await rows.count()).toBe(56);
    await page.locator(`[data-testid=events] tr[data-row-id="paged-late"]`).waitFor(WAIT);

    // The selection survived the update, and the bulk action sends exactly the selected row.
    await page.locator('button:text-is("Skip selected (1)")').waitFor(WAIT);
    await page.click('button:text-is("Skip selected (1)")');
    await page.locator('.notice', { hasText: 'Skip started for 1 event.' }).waitFor(WAIT);
    // The selection's job: its progress and a link to it stay on the endpoint page.
    await page.locator('[data-testid=selection-job] a:text-is("Job details")').waitFor(WAIT);

    // "Resubmit selected" is a bulk job too: one job over exactly the rows chosen.
    const chosen = [seeded[20]!, seeded[21]!];
    for (const id of chosen) await page.check(`[data-testid=events] input[aria-label="select ${id}"]`);
    await page.click('button:text-is("Resubmit selected (2)")');
    await page.locator('.notice', { hasText: 'Resubmit started for 2 events.' }).waitFor(WAIT);
    const [latest] = await page.evaluate(async () => (await fetch('/api/bulk-jobs?limit=1')).json());
    expect(latest).toMatchObject({ action: 'resubmit', endpointIds: ['Crm'], total: 2 });
    expect([...(latest.filter.eventIds as string[])].sort()).toEqual(chosen);

    // A comment on an event shows up in its details without a reload.
    const commented = seeded[10]!;
    await page.click(`[data-testid=events] a:text-is("${commented}")`);
    await page.waitForURL(new RegExp(`/events/${commented}$`), WAIT);
    await page.fill('textarea[aria-label="new comment"]', 'Called the ERP team; they unlock the customer.');
    await page.click('button:text-is("Add comment")');
    await page
      .locator('[data-testid=comments] li', { hasText: 'Called the ERP team; they unlock the customer.' })
      .filter({ hasText: 'Administrator' })
      .waitFor(WAIT);
    await page.locator('[data-testid=audits] tr', { hasText: 'Comment' }).waitFor(WAIT);
    expect(await page.inputValue('textarea[aria-label="new comment"]')).toBe('');
    expect(await page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload)).toBe(true);

    // An address the UI does not know says so instead of showing the endpoints.
    await page.goto(`${stack.url}/no-such-page`);
    await page.locator('[data-testid=not-found]', { hasText: '/no-such-page' }).waitFor(WAIT);
  }, 60_000);

  it('resubmitting a dead-lettered event asks to confirm it runs after later events of its session, and sends the acknowledgement', async () => {
    await seedFailedRows(stack.store, 'Crm', ['dead-1'], { status: ResolutionStatus.DeadLettered });
    await page.goto(`${stack.url}/endpoints/Crm/events/dead-1`);
    await page.click('button:text-is("Resubmit")');
    await page
      .locator('[data-testid=out-of-order-warning]', { hasText: 'after later events of its session' })
      .waitFor(WAIT);
    await page.click('button:text-is("Confirm resubmit")');
    await page.locator('.notice', { hasText: 'Resubmit sent' }).waitFor(WAIT);
    const audits = (await page.evaluate(async () => {
      const response = await fetch('/api/endpoints/Crm/events/dead-1/audits');
      return response.json();
    })) as { auditType: string; data: string | null }[];
    const resubmits = audits.filter((a) => a.auditType === 'Resubmit');
    expect(resubmits.map((a) => JSON.parse(a.data ?? '{}').acknowledgeOutOfOrder)).toEqual([true]);
  }, 60_000);
});

/** A marker that only survives while the page is never reloaded. */
async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { noReload: boolean }).noReload = true;
  });
}

/** The session's rows as the WebApp's API returns them, oldest event first. */
async function rowsOfSession(page: Page) {
  const body = await page.evaluate(async (sessionId) => {
    const response = await fetch(`/api/endpoints/Erp/events?sessionId=${sessionId}&pageSize=10`);
    return response.json();
  }, CUSTOMER_SESSION);
  const rows = (body as { events: { eventId: string; status: string; updatedAt: string }[] }).events;
  return [...rows].sort((a, b) => a.eventId.localeCompare(b.eventId));
}

async function statusesOf(rows: ReturnType<Page['locator']>): Promise<string[]> {
  const statuses = await rows
    .locator('[data-status]')
    .evaluateAll((badges) => badges.map((b) => b.getAttribute('data-status') ?? ''));
  return statuses.sort();
}
