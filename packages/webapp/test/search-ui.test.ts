import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { CustomerChanged, type LiveStack, startLiveStack } from './support/live-stack.js';

const WAIT = { timeout: 15_000 };
requireChromium('search UI test');

/** The rows the results table shows, as `endpoint/event status`, sorted. */
async function shownRows(page: Page): Promise<string[]> {
  const rows = page.locator('[data-testid=search-results] tbody tr[data-row-id]');
  return (
    await rows.evaluateAll((trs) =>
      trs.map((tr) => `${tr.getAttribute('data-row-id')} ${tr.querySelector('[data-status]')?.textContent}`),
    )
  ).sort();
}

/** What the API answers for the same search, read with the page's own session. */
async function apiRows(page: Page, query: string): Promise<string[]> {
  const events = await page.evaluate(async (q) => {
    const answer = await fetch(`/api/events?${q}`);
    return ((await answer.json()) as { events: { endpointId: string; eventId: string; status: string }[] })
      .events;
  }, query);
  return events.map((e) => `${e.endpointId}/${e.eventId} ${e.status}`).sort();
}

/**
 * Search on the real stack: Crm publishes to Erp and Billing, the handlers refuse malformed VAT numbers, and
 * the operator searches by payload text, status, endpoint and time, sharing links and using Back.
 */
describe.runIf(hasChromium)('event search in a real browser over the real stack', () => {
  let stack: LiveStack;
  let context: BrowserContext;
  let page: Page;
  let beforePublishing: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-search-'));

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    stack = await startLiveStack({ uiDistDir, withBilling: true });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${stack.url}/search`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/search$/, WAIT);
    beforePublishing = new Date(Date.now() - 1000).toISOString();
    const customers = [
      ['cust-a', 'NL-BAD-AAA'],
      ['cust-b', 'NL123456789B01'],
      ['cust-c', 'NL-BAD-CCC'],
    ] as const;
    for (const [customerId, vatNumber] of customers)
      await stack.crm.publish(CustomerChanged, { customerId, revision: 1, vatNumber });
    // Two endpoints consume each event: six rows once both have settled (4 Failed, 2 Completed).
    const deadline = Date.now() + WAIT.timeout;
    while ((await apiRows(page, 'status=Failed,Completed')).length < 6) {
      if (Date.now() > deadline) throw new Error('the published events did not settle at both endpoints');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds an event by a payload value, on every endpoint it reached, each row naming its endpoint', async () => {
    await page.goto(`${stack.url}/search?payload=NL-BAD-AAA`);
    await expect.poll(() => shownRows(page), WAIT).toHaveLength(2);
    const rows = await shownRows(page);
    expect(rows).toEqual(await apiRows(page, 'payload=NL-BAD-AAA'));
    const endpoints = await page
      .locator('[data-testid=search-results] [data-testid=endpoint]')
      .allTextContents();
    expect(endpoints.sort()).toEqual(['Billing', 'Erp']);
    for (const row of rows) expect(row).toMatch(/ Failed$/);
    expect(await page.inputValue('input[name=payload]')).toBe('NL-BAD-AAA');
  });

  it('opens a shared link with the same results, puts each change in the URL, and Back restores the search', async () => {
    const link = `/search?status=Failed&endpointId=Erp`;
    await page.goto(`${stack.url}${link}`);
    await expect.poll(() => shownRows(page), WAIT).toHaveLength(2);
    const first = await shownRows(page);
    expect(first).toEqual(await apiRows(page, 'status=Failed&endpointId=Erp'));
    expect(await page.locator('select[name=endpointId]').inputValue()).toBe('Erp');
    expect(await page.locator('input[name=status-Failed]').isChecked()).toBe(true);

    // A colleague opens the same link in a new tab: the same rows.
    const colleague = await context.newPage();
    await colleague.goto(`${stack.url}${link}`);
    await expect.poll(() => shownRows(colleague), WAIT).toEqual(first);
    await colleague.close();

    // Ticking a status is a new search: the URL says so and the rows follow.
    await page.check('input[name=status-Completed]');
    await page.waitForURL(/status=Failed%2CCompleted&endpointId=Erp$/, WAIT);
    await expect.poll(() => shownRows(page), WAIT).toHaveLength(3);
    // Text fields apply on Search: an event type nobody publishes empties the list.
    await page.fill('input[name=eventTypeId]', 'NoSuchEvent');
    await page.click('button:text-is("Search")');
    await page.waitForURL(/eventTypeId=NoSuchEvent/, WAIT);
    await page.locator('[data-testid=search-results] td.empty').waitFor(WAIT);

    await page.goBack();
    await page.waitForURL(/status=Failed%2CCompleted&endpointId=Erp$/, WAIT);
    await expect.poll(() => shownRows(page), WAIT).toHaveLength(3);
    expect(await page.inputValue('input[name=eventTypeId]')).toBe('');
    await page.goBack();
    await page.waitForURL(new RegExp(`${link.replace('?', '\\?')}$`), WAIT);
    await expect.poll(() => shownRows(page), WAIT).toEqual(first);
    expect(await page.locator('input[name=status-Completed]').isChecked()).toBe(false);
  });

  it('limits by update time: nothing was updated before the events were published', async () => {
    await page.goto(`${stack.url}/search?updatedAtTo=${encodeURIComponent(beforePublishing)}`);
    await page.locator('[data-testid=search-results] td.empty').waitFor(WAIT);
    expect(await page.inputValue('input[name=updatedAtTo]')).not.toBe('');
    await page.goto(
      `${stack.url}/search?updatedAtFrom=${encodeURIComponent(beforePublishing)}&status=Completed`,
    );
    await expect.poll(() => shownRows(page), WAIT).toHaveLength(2);
  });
});
