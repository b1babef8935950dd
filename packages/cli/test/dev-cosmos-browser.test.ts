import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon } from './support/cli-process.js';
import { operatorFixesBlockedSession } from './support/dev-browser-scenario.js';

const CHROMIUM = '/usr/bin/chromium';
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

  operatorFixesBlockedSession(() => ({ dev, page, baseUrl }));

  it('stops cleanly, stopping the local Cosmos server with it', async () => {
    expect(await dev.stop()).toBe(0);
    expect(dev.stdout).toContain('NimBus dev stopped.');
  });
});
