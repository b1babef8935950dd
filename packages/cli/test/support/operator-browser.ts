import fs from 'node:fs';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const WAIT = { timeout: 20_000 };

/** True when the browser tests can run; in CI a missing chromium is an error, never a skip. */
export function browserAvailable(suite: string): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true')
    throw new Error(`${suite}: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  console.warn(`\n!!! SKIPPING ${suite}: ${CHROMIUM} not found. CI fails in this case.\n`);
  return false;
}

/** Real headless chromium with its own profile directory. */
export async function openBrowser(profileDir: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(path.join(profileDir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
    viewport: { width: 1280, height: 900 },
  });
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

export async function signIn(page: Page, baseUrl: string, target: string, email: string, password: string) {
  await page.goto(`${baseUrl}${target}`);
  await page.waitForURL(/\/account\/login/, WAIT);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL(new RegExp(`${target}$`), WAIT);
}

/** Marks the page; a reload would lose the mark. */
export async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { noReload: boolean }).noReload = true;
  });
}

export async function stillNoReload(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload === true);
}
