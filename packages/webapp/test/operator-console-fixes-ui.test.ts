import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { CustomerChanged, type LiveStack, startLiveStack } from './support/live-stack.js';
import { seedFailedRows } from './support/seed.js';

const WAIT = { timeout: 15_000 };
requireChromium('operator console fixes browser test');

interface EventRow {
  eventId: string;
  status: string;
  updatedAt: string;
}

/**
 * What used to mislead an operator, checked in real chromium over the real stack (memory transport, the Erp
 * endpoint host, the Resolver, a SQLite store, the WebApp): the endpoints list's "last change", a healthy
 * endpoint's event list, Delete, the account form's labels, and every page at a tablet's 820 px.
 */
describe.runIf(hasChromium)('operator console: what misled, in a real browser over the real stack', () => {
  let stack: LiveStack;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-fixes-'));

  beforeAll(async () => {
    buildUi(path.join(tmp, 'dist'));
    stack = await startLiveStack({ uiDistDir: path.join(tmp, 'dist') });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${stack.url}/`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.locator('.live.on').waitFor(WAIT);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const api = async <T>(url: string): Promise<T> =>
    (await page.evaluate(async (u) => (await fetch(u)).json(), url)) as T;
  const newestEvent = async (endpointId: string) =>
    (await api<{ events: EventRow[] }>(`/api/endpoints/${endpointId}/events?pageSize=1`)).events[0];
  const eventRows = () => page.locator('[data-testid=events] tbody tr[data-row-id]');

  it('the endpoints list shows each endpoint’s last state change, and a healthy endpoint shows its completed events', async () => {
    await stack.crm.publish(CustomerChanged, {
      customerId: 'cust-ok',
      revision: 1,
      vatNumber: 'NL123456789B01',
    });
    await expect.poll(async () => (await newestEvent('Erp'))?.status, WAIT).toBe('Completed');
    const completedAt = (await newestEvent('Erp'))!.updatedAt;
    // Long enough that "the time the page was read" and "the time of the change" cannot be the same second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    await page.goto(`${stack.url}/`);
    const row = (endpointId: string) =>
      page.locator(`[data-testid=endpoints] tr[data-row-id="${endpointId}"]`);
    await row('Erp').waitFor(WAIT);
    expect(await row('Erp').locator('time').getAttribute('datetime')).toBe(completedAt);
    for (const endpointId of await page
      .locator('[data-testid=endpoints] tbody tr[data-row-id]')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id') ?? ''))) {
      const newest = await newestEvent(endpointId);
      if (newest)
        expect(await row(endpointId).locator('time').getAttribute('datetime')).toBe(newest.updatedAt);
      else expect(await row(endpointId).locator('td').last().textContent()).toBe('never');
    }

    await page.click('[data-testid=endpoints] a:text-is("Erp")');
    await page
      .locator('[data-testid=events-filter-hint]', { hasText: 'Nothing needs attention on Erp' })
      .waitFor(WAIT);
    await expect
      .poll(() => eventRows().locator('[data-status]').allTextContents(), WAIT)
      .toEqual(['Completed']);
    expect(await page.locator('[data-testid=events] td.empty').count()).toBe(0);
  }, 60_000);

  it('deleting an event goes back to its endpoint and says what was deleted', async () => {
    await seedFailedRows(stack.store, 'Erp', ['delete-me']);
    await stack.notifier.notify({ kind: 'endpoint', endpointId: 'Erp' });
    await page.goto(`${stack.url}/endpoints/Erp`);
    // Something needs attention now: the list shows that, and says how to see the rest.
    await page
      .locator('[data-testid=events-filter-hint]', { hasText: 'Showing the events that need attention' })
      .waitFor(WAIT);
    await page.click('[data-testid=events] a:text-is("delete-me")');
    await page.waitForURL(/\/events\/delete-me$/, WAIT);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('button:text-is("Delete")');

    await page.waitForURL(/\/endpoints\/Erp$/, WAIT);
    await page.locator('.notice', { hasText: 'Event delete-me deleted.' }).waitFor(WAIT);
    await page
      .locator('[data-testid=events-filter-hint]', { hasText: 'Nothing needs attention' })
      .waitFor(WAIT);
    expect(await page.locator('[data-testid=events] tr[data-row-id="delete-me"]').count()).toBe(0);
    expect(await page.locator('[data-testid=not-found], p.error').count()).toBe(0);
    expect(await page.evaluate(async () => (await fetch('/api/endpoints/Erp/events/delete-me')).status)).toBe(
      404,
    );
  }, 60_000);

  it('the account page leaves room between every label and its input', async () => {
    await page.goto(`${stack.url}/account`);
    await page.locator('input[name=tokenName]').waitFor(WAIT);
    const gaps = await page.locator('label.labeled-input').evaluateAll((labels) =>
      labels.map((label) => {
        const control = label.querySelector('input, select');
        const text = Array.from(label.childNodes).find((n) => n.nodeType === Node.TEXT_NODE);
        if (!control || !text) return { label: label.textContent, gap: -1 };
        const range = document.createRange();
        range.selectNodeContents(text);
        const t = range.getBoundingClientRect();
        const c = control.getBoundingClientRect();
        // Below the text or beside it, whichever the layout chose.
        return { label: text.textContent, gap: Math.max(c.top - t.bottom, c.left - t.right) };
      }),
    );
    expect(gaps.map((g) => g.label)).toEqual([
      'Current password',
      'New password',
      'Token name',
      'Highest role',
      'Expires in days',
    ]);
    for (const { label, gap } of gaps) expect(gap, `gap under "${label}"`).toBeGreaterThanOrEqual(4);
  }, 30_000);

  it('at 820 px no page is cut off: wide tables scroll inside their own box', async () => {
    await seedFailedRows(stack.store, 'Erp', ['narrow-failed'], {
      errorTextOf: () => `ERP refused customer session-narrow-failed: VAT number 'NL-BAD' is malformed`,
    });
    await stack.notifier.notify({ kind: 'endpoint', endpointId: 'Erp' });
    await page.setViewportSize({ width: 820, height: 1000 });
    // Each page with what shows that its data has arrived.
    const pages: [string, string][] = [
      ['/', '[data-testid=endpoints] tr[data-row-id=Erp]'],
      ['/endpoints/Erp', '[data-testid=events] tr[data-row-id=narrow-failed]'],
      ['/endpoints/Erp/events/narrow-failed', '[data-testid=error-details]'],
      ['/failure-groups', '[data-testid=failure-groups] tr[data-signature]'],
      ['/bulk-jobs', '[data-testid=bulk-jobs] tbody tr'],
      ['/search?status=Failed', '[data-testid=search-results] tbody tr'],
      ['/charts', 'figure.chart-card'],
      ['/health', 'main h1'],
      ['/topology', 'svg.topology'],
      ['/operations', 'main h1'],
      ['/dead-letters', 'main h1'],
      // The #26 pages: monitoring per input, one input's dead letters, one endpoint's failure groups.
      ['/monitoring', '[data-testid=monitoring] tr[data-input=Erp]'],
      ['/dead-letters/Erp', 'main h1'],
      ['/endpoints/Erp/failure-groups', '[data-testid=failure-groups] tr[data-signature]'],
      ['/admin/users', '[data-testid=users] tbody tr'],
      ['/admin/audit', '[data-testid=audit-log] tbody tr'],
      ['/admin/heartbeat', 'input[name=intervalSeconds]'],
      ['/admin/alerts', '[data-testid=alert-subscriptions]'],
      ['/account', 'input[name=tokenName]'],
      ['/no-such-page', '[data-testid=not-found]'],
    ];
    for (const [address, ready] of pages) {
      await page.goto(`${stack.url}${address}`);
      await page.locator(ready).first().waitFor(WAIT);
      const overflow = await page.evaluate(() => {
        const content = document.querySelector('main.content') as HTMLElement;
        const cut = Array.from(document.querySelectorAll('table'))
          .filter((t) => t.getBoundingClientRect().right > window.innerWidth + 1)
          .map((t) => t.getAttribute('data-testid') ?? t.className);
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          content: content.scrollWidth - content.clientWidth,
          cut,
        };
      });
      expect(overflow, address).toEqual({ page: 0, content: 0, cut: [] });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 120_000);
});
