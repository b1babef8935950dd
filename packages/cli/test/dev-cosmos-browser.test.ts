import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon } from './support/cli-process.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 20_000 };
if (!existsSync(CHROMIUM)) {
  if (process.env.CI === 'true') throw new Error(`nimbus dev --store cosmos test: ${CHROMIUM} is missing`);
  console.warn(
    `\n!!! SKIPPING nimbus dev --store cosmos browser test: ${CHROMIUM} not found. CI fails in this case.\n`,
  );
}

/**
 * The README scenario on the Cosmos DB store: `nimbus dev --store cosmos` without an account starts the
 * local Cosmos server in its process; an operator signs in, finds the blocked sample session, fixes the
 * failed event's payload in the browser and resubmits; the parked updates then complete in order.
 */
describe.runIf(existsSync(CHROMIUM))('nimbus dev --store cosmos in a browser (local Cosmos server)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-cosmos-'));
  let dev: CliDaemon;
  let baseUrl: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    assertCliBuilt();
    dev = new CliDaemon([
      'dev',
      '--store',
      'cosmos',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--traffic-interval',
      '60000',
    ]);
    baseUrl = (await dev.waitFor(/NimBus dev ready at (http:\/\/\S+)/, 40_000))[1] as string;
    context = await chromium.launchPersistentContext(join(dataDir, 'profile'), {
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
    page = context.pages()[0] ?? (await context.newPage());
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says it uses the local Cosmos server', () => {
    expect(dev.stdout).toContain('NimBus dev starting (store: cosmos');
    expect(dev.stdout).toMatch(/using the local Cosmos server at https:\/\/127\.0\.0\.1:\d+\//);
  });

  it('the operator fixes the blocked session in the browser and the parked updates complete in order', async () => {
    await page.goto(`${baseUrl}/endpoints/Erp`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', 'admin@local');
    await page.fill('input[name=password]', 'Local!Admin123');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/endpoints\/Erp$/, WAIT);

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

  it('stops cleanly, stopping the local Cosmos server with it', async () => {
    expect(await dev.stop()).toBe(0);
    expect(dev.stdout).toContain('NimBus dev stopped.');
  });
});
