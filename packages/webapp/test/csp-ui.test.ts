import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { ERP, FAILED_EVENT } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

const WAIT = { timeout: 15_000 };
requireChromium('CSP test');

const PAGES = [
  '/',
  `/endpoints/${ERP}`,
  `/endpoints/${ERP}/events/${FAILED_EVENT}`,
  `/endpoints/${ERP}/failure-groups`,
  '/failure-groups',
  '/bulk-jobs',
  '/search',
  '/charts',
  '/health',
  '/topology',
  '/operations',
  '/dead-letters',
  '/admin/users',
  '/admin/audit',
  '/admin/heartbeat',
  '/admin/alerts',
  '/account',
];

/** Every page of the UI under the WebApp's CSP (no 'unsafe-inline' for styles or scripts), in chromium. */
describe.runIf(hasChromium)('the UI runs under its Content-Security-Policy', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-csp-'));

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    h = await startHarness(memoryStores, { uiDistDir });
    context = await launchChromium(path.join(tmp, 'profile'));
    page = context.pages()[0] ?? (await context.newPage());
    await page.exposeFunction('reportCspViolation', (line: string) => void violations.push(line));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation(line: string): void }).reportCspViolation;
        report(`${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        violations.push(`console: ${message.text()}`);
    });
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("has style-src without 'unsafe-inline', and no page reports a violation", async () => {
    const csp = (await fetch(`${h.url}/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/style-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    await page.goto(`${h.url}/account/login`);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.locator('nav.sidebar').waitFor(WAIT);
    for (const url of PAGES) {
      await page.goto(`${h.url}${url}`);
      await page.locator('nav.sidebar').waitFor(WAIT);
      // The live stream keeps a request open (no network idle): give each page's data time to arrive and render.
      await page.waitForTimeout(800);
    }
    expect(violations).toEqual([]);
    // The detector itself: an inline <style> the policy must refuse is reported.
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red; }';
      document.head.append(style);
    });
    await expect.poll(() => violations.length, WAIT).toBeGreaterThan(0);
    expect(violations[0]).toContain('style-src');
  }, 120_000);
});
