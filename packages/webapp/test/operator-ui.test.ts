import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageType } from '@nimbus/core';
import { EndpointRole } from '@nimbus/message-store';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { BLOCKED_SESSION, DEFERRED_EVENTS, ERP, FAILED_EVENT } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

const CHROMIUM = '/usr/bin/chromium';
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const screenshotPath = path.resolve(packageDir, '../../docs/images/endpoint-details.png');
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.CI === 'true')
    throw new Error(`operator UI test: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  console.warn(`\n!!! SKIPPING operator UI browser test: ${CHROMIUM} not found. CI fails in this case.\n`);
}

/**
 * Sign in → endpoint details → failed event → Resubmit, then watch the page update without a reload.
 * The engine side is simulated: after the WebApp publishes the ResubmissionRequest, the test writes what the
 * Resolver would write (the event and its parked siblings Completed) and tells the state-change notifier.
 */
describe.runIf(hasChromium)('operator UI in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-ui-'));

  beforeAll(async () => {
    const distDir = path.join(tmp, 'dist');
    // Always a fresh build into a temp dir, so the test never runs against a stale ui/dist.
    execFileSync(
      process.execPath,
      [
        path.resolve(packageDir, '../../node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'ui/vite.config.ts',
        '--outDir',
        distDir,
        '--logLevel',
        'error',
      ],
      { cwd: packageDir, stdio: 'pipe' },
    );
    h = await startHarness(memoryStores, { uiDistDir: distDir });
    context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
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
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('signs in, resubmits a failed event and shows the new statuses live', async () => {
    await page.goto(`${h.url}/endpoints/${ERP}`);
    await page.waitForURL(/\/account\/login/);
    await page.fill('input[name=email]', 'admin@local');
    await page.fill('input[name=password]', 'Local!Admin123');
    await page.click('button[type=submit]');
    await page.waitForURL(new RegExp(`/endpoints/${ERP}$`));
    await page.locator('[data-testid=events] [data-status=Failed]').first().waitFor();
    await page.locator('[data-testid=blocked-sessions]', { hasText: BLOCKED_SESSION }).waitFor();
    await page.screenshot({ path: screenshotPath, fullPage: true });

    await page.click(`[data-testid=events] a:text-is("${FAILED_EVENT}")`);
    await page.waitForURL(new RegExp(`/events/${FAILED_EVENT}$`));
    const header = page.locator('h1 [data-status]');
    await expect.poll(() => header.getAttribute('data-status')).toBe('Failed');
    const sibling = (eventId: string) =>
      page.locator(`[data-testid=session-events] tr[data-event-id="${eventId}"] [data-status]`);
    await expect.poll(() => sibling(DEFERRED_EVENTS[0]).getAttribute('data-status')).toBe('Deferred');
    await page.evaluate(() => {
      (window as unknown as { noReload: boolean }).noReload = true;
    });
    await page.locator('.live.on').waitFor();

    await page.click('button:text-is("Resubmit")');
    const resubmission = await waitForResubmission(h);
    await simulateResolver(h, resubmission.messageId);

    await expect.poll(() => header.getAttribute('data-status'), { timeout: 10_000 }).toBe('Completed');
    for (const eventId of DEFERRED_EVENTS) {
      await expect
        .poll(() => sibling(eventId).getAttribute('data-status'), { timeout: 10_000 })
        .toBe('Completed');
    }
    expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
  }, 60_000);
});

async function waitForResubmission(h: Harness) {
  for (let i = 0; i < 200; i++) {
    const found = (await h.transport.peek(ERP, { max: 100 })).find(
      (m) => m.headers.MessageType === MessageType.ResubmissionRequest && m.headers.EventId === FAILED_EVENT,
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the UI did not publish a ResubmissionRequest');
}

/** What the Resolver writes once the endpoint handled the resubmission and replayed the parked siblings. */
async function simulateResolver(h: Harness, resubmissionId: string) {
  const store = h.stores.store;
  const completed = (lastMessageId: string) => ({
    enqueuedTimeUtc: new Date(),
    messageType: MessageType.ResolutionResponse,
    lastMessageId,
    eventTypeId: 'CustomerChanged',
    from: 'Crm',
    to: ERP,
    endpointRole: EndpointRole.Subscriber,
  });
  await store.uploadCompletedMessage(FAILED_EVENT, BLOCKED_SESSION, ERP, completed(resubmissionId));
  for (const eventId of DEFERRED_EVENTS) {
    await store.uploadCompletedMessage(eventId, BLOCKED_SESSION, ERP, completed(`${eventId}-replayed`));
  }
  await h.notifier.notifyEndpointStateChanged(ERP);
}
