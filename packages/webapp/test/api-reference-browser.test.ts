import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { memoryStores } from './support/store-factories.js';

requireChromium('API reference browser test');

/** The Scalar reference renders the document in a real browser under the WebApp's CSP, from its own origin only. */
describe.runIf(hasChromium)('the API reference at /api/docs in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-api-reference-'));

  beforeAll(async () => {
    h = await startHarness(memoryStores);
    context = await launchChromium(path.join(tmp, 'profile'));
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the operations, with no CSP violation and no request to another origin', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    const foreign: string[] = [];
    const origin = new URL(h.url).origin;
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
    });
    await page.goto(`${h.url}/api/docs`);
    expect(new URL(page.url()).pathname).toBe('/api/docs/');
    await page
      .getByText('Sign in with email and password', { exact: false })
      .first()
      .waitFor({ state: 'attached', timeout: 60_000 });
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  }, 120_000);
});
