import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyAlertSignature,
} from '../src/index.js';
import { startSmtpSink, startWebhookReceiver } from './support/alert-sinks.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { seedFailedRows } from './support/seed.js';
import { sqliteStores } from './support/store-factories.js';

const WAIT = { timeout: 15_000 };
const images = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images');
requireChromium('alerts UI test');

/** Alert subscriptions managed in chromium; the WebApp's own alert loop delivers to a local receiver and SMTP sink. */
describe.runIf(hasChromium)('alerts in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-alerts-ui-'));

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    receiver = await startWebhookReceiver();
    smtp = await startSmtpSink();
    h = await startHarness(sqliteStores, {
      uiDistDir,
      webApp: {
        alerts: {
          everyMs: 250,
          // The receiver listens on loopback, which webhooks may not target unless the operator allows it.
          allowPrivateWebhookTargets: true,
          smtp: { host: '127.0.0.1', port: smtp.port, from: 'nimbus@example.test' },
          retry: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1_000 },
        },
      },
    });
    await h.webApp.alerting.runOnce(); // the seeded failures are known before anyone subscribes
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    await receiver?.close();
    await smtp?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('subscribes a signed webhook, shows its deliveries and failed attempts, mails through SMTP, deletes', async () => {
    await page.goto(`${h.url}/account/login`);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => !u.pathname.startsWith('/account/login'), WAIT);
    await page.goto(`${h.url}/admin/alerts`);
    await page.locator('[data-testid=alert-subscriptions] td.empty').waitFor(WAIT);

    const form = page.locator('form[aria-label="new alert subscription"]');
    await form.locator('select[name=alertEndpoint]').selectOption('Erp');
    await form.locator('input[name=url]').fill(receiver.url);
    await form.locator('button:text-is("Generate a secret")').click();
    const secret = await form.locator('input[name=secret]').inputValue();
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    await form.locator('button[type=submit]').click();
    const row = page.locator('[data-testid=alert-subscriptions] tr[data-subscription-id]');
    await row.first().waitFor(WAIT);
    expect(await row.first().textContent()).toContain('new failure group');
    expect(await row.first().textContent()).toContain('signed (HMAC-SHA256)');
    expect(await page.content()).not.toContain('path-secret');

    // A new cause of failures on Erp: the alert loop posts it once, signed with the generated secret.
    await seedFailedRows(h.stores.store, 'Erp', ['evt-ui-1', 'evt-ui-2', 'evt-ui-3'], {
      errorTextOf: (id) => `Carrier API rejected parcel ${id}`,
    });
    await expect.poll(() => receiver.received.length, WAIT).toBe(1);
    const hook = receiver.received[0]!;
    expect(
      verifyAlertSignature(
        secret,
        String(hook.headers[TIMESTAMP_HEADER]),
        hook.body,
        String(hook.headers[SIGNATURE_HEADER]),
      ),
    ).toBe(true);
    const lastDelivery = row.first().locator('[data-testid=last-delivery]');
    await lastDelivery.locator('[data-status=Delivered]').waitFor(WAIT);

    // The receiver goes down: the test alert is retried, and each failed attempt is shown with its error.
    receiver.state.failNext = 100;
    await row.first().locator('button:text-is("Send test")').click();
    await lastDelivery.locator('.error', { hasText: 'The webhook answered HTTP 500.' }).waitFor(WAIT);
    await row.first().locator('button:text-is("Deliveries")').click();
    await page.locator('[data-testid=deliveries] li', { hasText: 'attempt 2' }).first().waitFor(WAIT);
    await lastDelivery.locator('[data-status=Failed]').waitFor(WAIT);
    expect(await lastDelivery.textContent()).toContain('3 attempts');
    await page.screenshot({ path: path.join(images, 'admin-alerts.png'), fullPage: true });
    receiver.state.failNext = 0;

    // E-mail through the SMTP server the WebApp was given.
    await form.locator('select[name=alertEndpoint]').selectOption('Erp');
    await form.locator('select[name=channel]').selectOption('mail');
    await form.locator('input[name=mail]').fill('oncall@example.test');
    await form.locator('input[name=trigger-NewFailureGroup]').uncheck();
    await form.locator('input[name=trigger-SessionBlocked]').check();
    await form.locator('input[name=blockedMinutes]').fill('30');
    await form.locator('button[type=submit]').click();
    const mailRow = page.locator('[data-testid=alert-subscriptions] tr', { hasText: 'oncall@example.test' });
    await mailRow.waitFor(WAIT);
    expect(await mailRow.textContent()).toContain('session blocked > 30 min');
    await mailRow.locator('button:text-is("Send test")').click();
    await expect.poll(() => smtp.mails.length, WAIT).toBe(1);
    expect(smtp.mails[0]!.to).toEqual(['oncall@example.test']);
    await mailRow.locator('[data-testid=last-delivery] [data-status=Delivered]').waitFor(WAIT);

    page.once('dialog', (dialog) => void dialog.accept());
    await mailRow.locator('button:text-is("Delete")').click();
    await page.locator('.notice', { hasText: 'The subscription was deleted.' }).waitFor(WAIT);
    await expect.poll(() => mailRow.count(), WAIT).toBe(0);
    const audits = await h.admin.get('/api/audits?auditType=ManageSubscription');
    const actions = (audits.body as { audits: { data: string }[] }).audits.map(
      (a) => JSON.parse(a.data).action,
    );
    expect(actions).toEqual(['unsubscribe', 'test', 'subscribe', 'test', 'subscribe']);
  });
});
