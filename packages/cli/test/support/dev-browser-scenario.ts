import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { CliDaemon } from './cli-process.js';

const WAIT = { timeout: 20_000 };

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
