import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon } from './cli-process.js';
import { openBrowser } from './operator-browser.js';

const WAIT = { timeout: 20_000 };

export interface DevInBrowser {
  readonly dev: CliDaemon;
  readonly page: Page;
  readonly baseUrl: string;
}

/**
 * `nimbus dev …backendArgs` on a fresh data directory (quiet sample traffic) and chromium with its profile
 * there, started before the file's tests and stopped after them; the result reads the running parts.
 */
export function devInBrowser(backendArgs: readonly string[], tmpPrefix: string): () => DevInBrowser {
  const dataDir = mkdtempSync(join(tmpdir(), tmpPrefix));
  let running: DevInBrowser;
  let context: BrowserContext | undefined;
  let dev: CliDaemon | undefined;
  beforeAll(async () => {
    assertCliBuilt();
    dev = new CliDaemon([
      'dev',
      ...backendArgs,
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--traffic-interval',
      '60000',
    ]);
    const baseUrl = (await dev.waitFor(/NimBus dev ready at (http:\/\/\S+)/, 40_000))[1] as string;
    const browser = await openBrowser(dataDir);
    context = browser.context;
    running = { dev, page: browser.page, baseUrl };
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => running;
}

/**
 * The README scenario in a browser, for any `nimbus dev` backend: an operator signs in, finds the blocked sample
 * session, fixes the failed event's payload and resubmits; the parked updates then complete in order.
 */
export function operatorFixesBlockedSession(
  context: () => { dev: CliDaemon; page: Page; baseUrl: string },
): void {
  it('the operator fixes the blocked session in the browser and the parked updates complete in order', async () => {
    const { dev, page, baseUrl } = context();
    await page.goto(`${baseUrl}/endpoints/Erp`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', 'admin@local');
    await page.fill('input[name=password]', 'Local!Admin123');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/endpoints\/Erp$/, WAIT);
    // The public default is replaced at the first sign-in, then the page the operator asked for opens.
    const choose = page.locator('[data-testid=choose-password]');
    await choose.waitFor(WAIT);
    await choose.locator('input[name=currentPassword]').fill('Local!Admin123');
    await choose.locator('input[name=newPassword]').fill('Dev!Chosen-Passphrase-42');
    await choose.locator('button[type=submit]').click();

    await page
      .locator('[data-testid=blocked-sessions] tr', { hasText: 'C-2001' })
      .filter({ hasText: '2 deferred' })
      .waitFor(WAIT);
    const rows = page.locator('[data-testid=events] tbody tr[data-row-id]');
    const failedId = await rows
      .filter({ has: page.locator('[data-status=Failed]') })
      .first()
      .getAttribute('data-row-id');
    expect(failedId).toBeTruthy();
    expect(dev.stdout).not.toContain('Erp applied customer C-2001');

    await page.click(`[data-testid=events] a:text-is("${failedId}")`);
    await page.waitForURL(new RegExp(`/events/${failedId}$`), WAIT);
    const header = page.locator('h1 [data-status]');
    await expect.poll(() => header.getAttribute('data-status'), WAIT).toBe('Failed');
    await page.locator('.error-block', { hasText: 'not a valid VAT number' }).waitFor(WAIT);

    await page.click('button:text-is("Resubmit with changes")');
    const editor = page.locator('textarea[aria-label=payload]');
    const payload = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    await editor.fill(JSON.stringify({ ...payload, vatNumber: 'DK12345678' }, null, 2));
    await page.click('button:text-is("Send")');

    await expect.poll(() => header.getAttribute('data-status'), WAIT).toBe('Completed');
    await page.locator('[data-testid=audits] tr', { hasText: 'ResubmitWithChanges' }).waitFor(WAIT);
    await expect
      .poll(
        () => [...dev.stdout.matchAll(/Erp applied customer C-2001 revision (\d+)/g)].map((m) => m[1]),
        WAIT,
      )
      .toEqual(['1', '2', '3']);
    await page.click('a:text-is("← Erp")');
    await page.locator('[data-testid=blocked-sessions] td.empty').waitFor(WAIT);
  }, 90_000);
}
