import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Header } from '@nimbus/core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { hasChromium, requireChromium } from './support/browser.js';
import { closeBrowserHarness, startBrowserHarness } from './support/browser-harness.js';
import type { Harness } from './support/harness.js';
import { ERP } from './support/seed.js';

const WAIT = { timeout: 15_000 };
requireChromium('dead-letters UI test');

// Issue 12.7: the Dead letters page lists the transport's dead letters with their reason, shows one, requeues it.
describe.runIf(hasChromium)('Dead letters page in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-dlq-ui-'));

  beforeAll(async () => {
    ({ h, context, page } = await startBrowserHarness(tmp));
  }, 120_000);
  afterAll(() => closeBrowserHarness({ h, context }, tmp));

  it('lists a dead letter without message type with its reason, shows its body, and requeues it', async () => {
    await h.transport.publish([
      {
        source: ERP,
        messages: [
          {
            messageId: 'raw-1',
            sessionId: 'ui-1',
            correlationId: 'c',
            headers: { [Header.To]: ERP },
            body: '{"raw":true}',
          },
        ],
      },
    ]);
    const session = await h.transport.acceptSession(ERP, { sessionId: 'ui-1', waitMs: 0 });
    const [received] = await session!.receive({ max: 1, waitMs: 0 });
    await session!.deadLetter(received!, {
      reason: "Invalid message: missing required header 'MessageType'",
      description: 'no type',
    });
    await session!.release();

    await page.goto(`${h.url}/dead-letters/${ERP}`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dead-letters\/Erp$/, WAIT);
    const row = page.locator('table tbody tr', { hasText: "missing required header 'MessageType'" });
    await row.waitFor(WAIT);
    await row.getByRole('button', { name: 'Show' }).click();
    await page.locator('[aria-label="dead letter"]', { hasText: '{"raw":true}' }).waitFor(WAIT);
    await row.getByRole('button', { name: 'Requeue' }).click();
    await page.locator('.notice', { hasText: 'Requeued 1.' }).waitFor(WAIT);
    expect((await h.transport.peek(ERP, { sessionId: 'ui-1' })).map((m) => m.messageId)).toEqual(['raw-1']);
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBe(0);
  });
});
