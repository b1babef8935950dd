import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium; the browser tests fail in CI without it and are skipped (loudly) elsewhere. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Throws in CI when chromium is missing; elsewhere warns that `suite` is skipped. */
export function requireChromium(suite: string): void {
  if (hasChromium) return;
  if (process.env.CI === 'true')
    throw new Error(`${suite}: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  console.warn(`\n!!! SKIPPING ${suite}: ${CHROMIUM} not found. CI fails in this case.\n`);
}

/** A fresh build of the UI into `outDir`, so a browser test never runs against a stale ui/dist. */
export function buildUi(outDir: string): void {
  execFileSync(
    process.execPath,
    [
      path.resolve(packageDir, '../../node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'ui/vite.config.ts',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
    ],
    { cwd: packageDir, stdio: 'pipe' },
  );
}

/** Headless chromium with the flags this machine needs (no sandbox as root, no background networking). */
export function launchChromium(
  profileDir: string,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
    ...(viewport ? { viewport } : {}),
  });
}
