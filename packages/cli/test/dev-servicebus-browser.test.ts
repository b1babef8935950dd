import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon } from './support/cli-process.js';
import { operatorFixesBlockedSession } from './support/dev-browser-scenario.js';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  if (process.env.CI === 'true')
    throw new Error(`nimbus dev --transport servicebus test: ${CHROMIUM} is missing`);
  console.warn(
    `\n!!! SKIPPING nimbus dev --transport servicebus browser test: ${CHROMIUM} not found. CI fails in this case.\n`,
  );
}

/**
 * The README scenario on Azure Service Bus: `nimbus dev --transport servicebus` without a namespace starts
 * nimbus-sb-emulator in its process, provisions the sample topology through the administration client and runs
 * the adapters, the Resolver and the WebApp on it (emulator-verified).
 */
describe.runIf(existsSync(CHROMIUM))(
  'nimbus dev --transport servicebus in a browser (in-process emulator)',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-servicebus-'));
    let dev: CliDaemon;
    let baseUrl: string;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      assertCliBuilt();
      dev = new CliDaemon([
        'dev',
        '--transport',
        'servicebus',
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

    it('says it uses the in-process emulator and provisions the sample topology on it', () => {
      expect(dev.stdout).toContain('transport: servicebus');
      expect(dev.stdout).toMatch(/using nimbus-sb-emulator on 127\.0\.0\.1:\d+/);
      expect(dev.stdout).toMatch(/topology: .*Erp/);
    });

    operatorFixesBlockedSession(() => ({ dev, page, baseUrl }));

    it('stops cleanly, stopping the emulator with it', async () => {
      expect(await dev.stop()).toBe(0);
      expect(dev.stdout).toContain('NimBus dev stopped.');
    });
  },
);
