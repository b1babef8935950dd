import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildUi, launchChromium } from './browser.js';
import { type Harness, startHarness } from './harness.js';
import { memoryStores } from './store-factories.js';

export interface BrowserHarness {
  readonly h: Harness;
  readonly context: BrowserContext;
  readonly page: Page;
}

/** The UI built into `tmp/dist`, a WebApp over memory stores serving it, and chromium with its profile in `tmp`. */
export async function startBrowserHarness(tmp: string): Promise<BrowserHarness> {
  const uiDistDir = path.join(tmp, 'dist');
  buildUi(uiDistDir);
  const h = await startHarness(memoryStores, { uiDistDir });
  const context = await launchChromium(path.join(tmp, 'profile'));
  return { h, context, page: context.pages()[0] ?? (await context.newPage()) };
}

/** Closes what `startBrowserHarness` started (whatever of it did start) and removes `tmp`. */
export async function closeBrowserHarness(harness: Partial<BrowserHarness>, tmp: string): Promise<void> {
  await harness.context?.close();
  await harness.h?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
