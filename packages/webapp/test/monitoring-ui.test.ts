import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Header, uuidv7 } from '@nimbus/core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

const WAIT = { timeout: 30_000 };
requireChromium('monitoring browser test');

/**
 * #26 acceptance in a real browser on the default stack (SQLite store and transport, Resolver and a real Erp
 * endpoint host in this process): the monitoring page shows the backlog growing while the adapter is stopped
 * and draining when it comes back; an operator pauses and resumes Erp's consumers and sets a backlog threshold
 * the page then shows the input over; a custom check turning
 * unhealthy is shown with its reason; the dead-letter overview counts per input and a purge asks first.
 */
describe.runIf(hasChromium)('monitoring pages in a real browser', () => {
  let stack: MonitoringStack;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-monitoring-ui-'));
  const erpRow = () => page.locator('[data-testid=monitoring] tr[data-input=Erp]');
  const backlog = async () => Number(await erpRow().locator('[data-testid=backlog]').textContent());

  beforeAll(async () => {
    buildUi(path.join(tmp, 'dist'));
    stack = await startMonitoringStack({ uiDistDir: path.join(tmp, 'dist') });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${stack.url}/monitoring`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/monitoring$/, WAIT);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows a growing backlog while the adapter is stopped, and draining when it comes back', async () => {
    await expect.poll(backlog, WAIT).toBe(0);
    await stack.stopErp();
    await stack.publish(2);
    await expect.poll(backlog, WAIT).toBe(2);
    await stack.publish(3);
    await expect.poll(backlog, WAIT).toBe(5);
    await stack.startErp();
    await expect.poll(backlog, WAIT).toBe(0);
    // The handled messages' times and throughput appear once the Resolver has recorded them.
    await expect.poll(() => erpRow().locator('[data-testid=critical]').textContent(), WAIT).toMatch(/^\d/);
    await expect.poll(() => erpRow().locator('[data-testid=throughput]').textContent(), WAIT).not.toBe('0/s');
  });

  it("pauses Erp's consumers from the console (messages wait) and resumes them", async () => {
    const state = erpRow().locator('[data-testid=consumer-state]');
    await erpRow().locator('button', { hasText: 'Pause' }).click();
    await expect.poll(() => state.textContent(), WAIT).toBe('Paused');
    await expect.poll(() => page.locator('.notice').textContent(), WAIT).toContain('Erp paused');
    await new Promise((r) => setTimeout(r, 600)); // the host's pause poll is 200 ms
    const handled = stack.handled;
    await stack.publish(4);
    await expect.poll(backlog, WAIT).toBe(4);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await backlog()).toBe(4);
    expect(stack.handled).toBe(handled);
    await erpRow().locator('button', { hasText: 'Resume' }).click();
    await expect.poll(() => state.textContent(), WAIT).toBe('Receiving');
    await expect.poll(backlog, WAIT).toBe(0);
    expect(stack.handled - handled).toBe(4);
  });

  it('sets a backlog threshold from the console and marks the input while it is over it', async () => {
    const breaches = erpRow().locator('[data-testid=breaches]');
    await expect.poll(() => breaches.textContent(), WAIT).toBe('none set');
    await page.selectOption('form[aria-label=thresholds] select[aria-label="threshold input"]', 'Erp');
    await page.fill('form[aria-label=thresholds] input[aria-label="max backlog"]', '2');
    await page.click('form[aria-label=thresholds] button:text-is("Save thresholds")');
    await page
      .locator('form[aria-label=thresholds] .notice', { hasText: 'Thresholds of Erp saved.' })
      .waitFor(WAIT);
    await expect.poll(() => breaches.textContent(), WAIT).toBe('within');
    await stack.stopErp();
    await stack.publish(3);
    await expect.poll(() => breaches.textContent(), WAIT).toBe('backlog 3 > 2');
    expect(await erpRow().getAttribute('class')).toContain('row-alert');
    await stack.startErp();
    await expect.poll(() => breaches.textContent(), WAIT).toBe('within');
    // Cleared again (an empty field), so the later tests see no threshold.
    await page.fill('form[aria-label=thresholds] input[aria-label="max backlog"]', '');
    await page.click('form[aria-label=thresholds] button:text-is("Save thresholds")');
    await expect.poll(() => breaches.textContent(), WAIT).toBe('none set');
  });

  it('shows a custom check turning unhealthy with its reason', async () => {
    const check = page.locator('[data-testid=custom-checks] tr[data-check=vat-registry]');
    await expect.poll(() => check.locator('[data-testid=check-status]').textContent(), WAIT).toBe('Healthy');
    stack.registryHealthy = false;
    await expect
      .poll(() => check.locator('[data-testid=check-status]').textContent(), WAIT)
      .toBe('Unhealthy');
    expect(await check.locator('[data-testid=check-reason]').textContent()).toBe(
      'VAT registry answers 503 Service Unavailable',
    );
    stack.registryHealthy = true;
    await expect.poll(() => check.locator('[data-testid=check-status]').textContent(), WAIT).toBe('Healthy');
  });

  it('counts dead letters per input, and purges a queue only once the operator confirms', async () => {
    // No message type or event id: the Erp host's engine dead-letters it with a reason.
    await stack.transport.publish([
      {
        source: 'Erp',
        messages: [
          {
            messageId: uuidv7(),
            sessionId: 'dl-ui',
            correlationId: null,
            headers: { [Header.To]: 'Erp' },
            body: '{}',
          },
        ],
      },
    ]);
    await page.goto(`${stack.url}/dead-letters`);
    const count = page.locator(
      '[data-testid=dead-letter-overview] tr[data-input=Erp] [data-testid=dead-letter-count]',
    );
    await expect
      .poll(async () => {
        await page.reload();
        return count.textContent();
      }, WAIT)
      .toBe('1');
    await page.locator('[data-testid=dead-letter-overview] a', { hasText: 'Erp' }).click();
    await page.waitForURL(/\/dead-letters\/Erp$/, WAIT);
    const purge = page.locator('button', { hasText: 'Purge all' });
    await expect.poll(() => purge.isEnabled(), WAIT).toBe(true);
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await purge.click();
    await expect.poll(() => asked.length, WAIT).toBe(1);
    expect(asked[0]).toBe('Delete every dead letter at Erp for good?');
    expect((await stack.transport.counts('Erp')).deadLettered).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await purge.click();
    await expect.poll(() => page.locator('.notice').textContent(), WAIT).toBe('Purged 1.');
    expect((await stack.transport.counts('Erp')).deadLettered).toBe(0);
  });
});
