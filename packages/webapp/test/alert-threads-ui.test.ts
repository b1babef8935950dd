import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResolutionStatus } from '@nimbus/message-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { startWebhookReceiver } from './support/alert-sinks.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { sqliteStores } from './support/store-factories.js';

const WAIT = { timeout: 20_000 };
const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images/screens');
const CAUSE = 'Error: Credit limit of customer <value> exceeded';
requireChromium('alert threads UI test');

type Hook = {
  summary: string;
  details: { sessionCount: number };
  alert: { state: string; sequence: number };
};

/**
 * 300 sessions fail on one cause while the WebApp's own alert loop runs (every 250 ms, digest 500 ms): the
 * webhook receiver gets one alert for the group whose session count rises, not 300. The cause is snoozed from
 * the failure groups page in chromium, and a retrying event is shown as such.
 */
describe.runIf(hasChromium)('alert threads and retrying events in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-alert-threads-ui-'));
  const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `credit-${from + i}`);
  const seed = (from: number, to: number) =>
    seedFailedRows(h.stores.store, 'Erp', ids(from, to), {
      errorTextOf: (id) => `Credit limit of customer '${id}' exceeded`,
    });
  const hooks = () => receiver.received.map((r) => JSON.parse(r.body) as Hook);
  const shoot = async (name: string) => {
    for (const width of [1366, 820]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      // As scripts/screenshots.ts does: the top of a long page, cut at 1800 px.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({
        path: path.join(screens, `${name}-${width}.png`),
        fullPage: true,
        clip: { x: 0, y: 0, width, height: Math.min(Math.max(height, 900), 1800) },
      });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  };

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    receiver = await startWebhookReceiver();
    h = await startHarness(sqliteStores, {
      uiDistDir,
      webApp: { alerts: { everyMs: 250, digestMs: 500, allowPrivateWebhookTargets: true } },
    });
    await h.webApp.alerting.runOnce(); // the seeded failures are known before anyone subscribes
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${h.url}/account/login`);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => !u.pathname.startsWith('/account/login'), WAIT);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    await receiver?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('300 sessions blocked by one cause: one group alert whose count rises, then the cause is snoozed', async () => {
    const created = await h.admin.post('/api/endpoints/Erp/alert-subscriptions', {
      channel: 'webhook',
      url: receiver.url,
      secret: 'a-secret-of-at-least-16-chars',
      triggers: ['NewFailureGroup'],
      payload: 'Credit limit',
    });
    expect(created.status).toBe(201);
    await seed(0, 100);
    await expect.poll(() => hooks().length, WAIT).toBe(1);
    expect(hooks()[0]).toMatchObject({ alert: { state: 'open', sequence: 1 } });
    await seed(100, 300);
    await expect.poll(() => hooks().at(-1)?.details.sessionCount, WAIT).toBe(300);
    // A few more rounds: nothing changed, nothing more is sent.
    await new Promise((r) => setTimeout(r, 1_500));
    const all = hooks();
    expect(all.length).toBeLessThanOrEqual(4);
    expect(all.map((b) => b.alert.sequence)).toEqual(all.map((_, i) => i + 1));
    expect(all.slice(1).every((b) => b.alert.state === 'update')).toBe(true);
    const counts = all.map((b) => b.details.sessionCount);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    console.info(
      `300 blocked sessions, one cause: ${all.length} deliveries, session counts ${counts.join(' → ')}`,
    );

    await page.goto(`${h.url}/endpoints/Erp/failure-groups`);
    const row = page.locator(`[data-testid=failure-groups] tr[data-signature="${CAUSE}"]`);
    await row.locator('[data-testid=group-sessions]', { hasText: '300' }).waitFor(WAIT);
    await row.locator('select[aria-label="Snooze alerts for"]').selectOption('240');
    await row.locator('button:text-is("Snooze alerts")').click();
    await row.locator('[data-testid=snoozed]', { hasText: 'Alerts snoozed until' }).waitFor(WAIT);
    await shoot('failure-groups-snoozed');
    const before = hooks().length;
    await seed(300, 350);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(hooks().length).toBe(before);
    await page.reload(); // seeded straight into the store: no live update is pushed for it
    await row.locator('[data-testid=group-sessions]', { hasText: '350' }).waitFor(WAIT);
    await row.locator('button:text-is("End snooze")').click();
    await expect.poll(() => hooks().at(-1)?.details.sessionCount, WAIT).toBe(350);
  }, 120_000);

  it('a retrying event is shown Retrying with its attempt and next attempt, and is not counted failed', async () => {
    await seedFailedRows(h.stores.store, 'Erp', ['throttled-1'], {
      errorTextOf: () => 'The ERP throttled the request; it asks to retry after 500 ms.',
    });
    const row = (
      await h.stores.store.getEventsByFilter({ filter: { endpointId: 'Erp' }, maxItems: 1000 })
    ).events.find((e) => e.eventId === 'throttled-1')!;
    await h.stores.store.writeStatus({
      key: { endpointId: 'Erp', eventId: 'throttled-1', sessionId: row.sessionId },
      status: ResolutionStatus.Failed,
      content: {
        ...row,
        lastMessageId: 'throttled-1-m2',
        retry: { attempt: 2, maxAttempts: 6, nextAttemptAt: new Date(Date.now() + 3_600_000) },
      },
    });
    await page.goto(`${h.url}/endpoints/Erp/events/throttled-1`);
    await page.locator('h1 [data-status=Retrying]', { hasText: 'Retrying 2/6' }).waitFor(WAIT);
    expect(await page.locator('[data-testid=retrying]').textContent()).toContain(
      'attempt 2 of 6, next attempt at',
    );
    await shoot('event-retrying');
    const summary = (await h.admin.get('/api/endpoints/Erp')).body as {
      endpoint: { retryingCount: number; failedCount: number };
    };
    expect(summary.endpoint.retryingCount).toBe(1);
    await page.goto(`${h.url}/endpoints/Erp`);
    await page.locator('.tile-retrying', { hasText: '1 retrying' }).waitFor(WAIT);
    await page.locator('[data-testid=blocked-sessions] [data-status=Retrying]').first().waitFor(WAIT);
    await shoot('endpoint-retrying');
  }, 60_000);
});
