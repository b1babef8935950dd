import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { hasChromium, requireChromium } from './support/browser.js';
import { closeBrowserHarness, startBrowserHarness } from './support/browser-harness.js';
import type { Harness } from './support/harness.js';

const WAIT = { timeout: 15_000 };
requireChromium('UI security test');

/** The sign-in return path, the default-password banner and the API token card, in a real browser. */
describe.runIf(hasChromium)('UI security in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-ui-security-'));

  beforeAll(async () => {
    ({ h, context, page } = await startBrowserHarness(tmp));
  }, 120_000);
  afterAll(() => closeBrowserHarness({ h, context }, tmp));

  it('stays on the origin after sign-in whatever the return path, and shows the default-password banner', async () => {
    const origin = new URL(h.url).origin;
    for (const evil of ['/\\evil.example', '/\t/evil.example', '//evil.example', 'https://evil.example/']) {
      await context.clearCookies();
      await page.goto(`${h.url}/account/login?returnUrl=${encodeURIComponent(evil)}`);
      await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
      await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
      await page.click('button[type=submit]');
      await page.locator('.security-banner').waitFor(WAIT);
      expect(new URL(page.url()).origin, evil).toBe(origin);
      expect(new URL(page.url()).pathname, evil).toBe('/');
    }
    expect(await page.locator('.security-banner').textContent()).toContain('default password');
  }, 90_000);

  it('creates an API token on the account page, shown once', async () => {
    await page.goto(`${h.url}/account`);
    await page.fill('input[name=tokenName]', 'browser-ci');
    await page.click('form:has(input[name=tokenName]) button[type=submit]');
    const secret = (await page.locator('[data-testid=new-token]').textContent(WAIT)) ?? '';
    expect(secret).toMatch(/^nimbus_pat_/);
    const response = await fetch(`${h.url}/api/endpoints`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(response.status).toBe(200);
    await page.reload();
    await page.locator('td', { hasText: 'browser-ci' }).waitFor(WAIT);
    expect(await page.locator('[data-testid=new-token]').count()).toBe(0);
  }, 60_000);
});
