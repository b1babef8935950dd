/**
 * Screenshots of every WebApp page at 1366 px and 820 px for docs/webapp.md, taken from the real stack:
 * `nimbus dev` with the sample CRM/ERP platform (its traffic blocks session C-2001 with a failure), signed in
 * as the bootstrap admin in real chromium. One group resubmit gives the bulk pages a job to show.
 *
 * Usage (after `npm run build`): npm run screenshots -w @nimbus/webapp
 * Writes docs/images/screens/<page>-<width>.png; NIMBUS_SCREENSHOTS_DIR overrides the folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cliBin = path.join(repo, 'packages/cli/dist/bin.js');
const outDir = process.env.NIMBUS_SCREENSHOTS_DIR ?? path.join(repo, 'docs/images/screens');
const WIDTHS = [1366, 820] as const;
const HEIGHT = 900;
/** Longer pages are cut here: the docs show the top of a page, not a scroll of it. */
const MAX_HEIGHT = 1800;
const WAIT = { timeout: 30_000 };
/** The sample's documented first sign-in (docs/getting-started.md). */
const ADMIN = { email: 'admin@local', password: 'Local!Admin123' };

interface Shot {
  readonly name: string;
  readonly path: string;
  /** What shows that the page's data has arrived. */
  readonly ready: string;
}

function startDev(dataDir: string): { child: ChildProcess; url: Promise<string> } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('NIMBUS_')));
  const child = spawn(
    process.execPath,
    [cliBin, 'dev', '--data-dir', dataDir, '--port', '0', '--traffic-interval', '1000'],
    // Seeded through the setting: the screenshots skip the first sign-in's password change.
    {
      cwd: repo,
      env: { ...env, NIMBUS_IDENTITY_ADMIN_PASSWORD: ADMIN.password },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /NimBus dev ready at (http:\/\/\S+)/.exec(out);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.on('exit', (code) => reject(new Error(`nimbus dev exited (${code}) before it was ready:\n${out}`)));
  });
  return { child, url };
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  return (await page.evaluate(async (u) => (await fetch(u)).json(), url)) as T;
}

/** Polls `read` until it returns a value (the sample's traffic takes a few seconds to block its session). */
async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

async function capture(page: Page, shot: Shot, width: number): Promise<void> {
  await page.setViewportSize({ width, height: HEIGHT });
  await page.goto(shot.path);
  await page.locator(shot.ready).first().waitFor(WAIT);
  // Charts animate and live queries settle; a still page photographs the same every run.
  await page.waitForTimeout(800);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const file = path.join(outDir, `${shot.name}-${width}.png`);
  await page.screenshot({
    path: file,
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(Math.max(height, HEIGHT), MAX_HEIGHT) },
  });
  console.log(`${path.relative(repo, file)} (${Math.round(fs.statSync(file).size / 1024)} KiB)`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(cliBin)) throw new Error(`${cliBin} is missing: run npm run build first.`);
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-screenshots-'));
  const dev = startDev(path.join(tmp, 'data'));
  const context = await launchChromium(path.join(tmp, 'profile'), { width: WIDTHS[0], height: HEIGHT });
  try {
    const base = await dev.url;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${base}/account/login`);
    await page.locator('input[name=email]').waitFor(WAIT);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      await page.screenshot({ path: path.join(outDir, `login-${width}.png`) });
    }
    await page.fill('input[name=email]', ADMIN.email);
    await page.fill('input[name=password]', ADMIN.password);
    await page.click('button[type=submit]');
    await page.locator('.live.on').waitFor(WAIT);

    const blocked = await eventually('the sample to block a session on Erp', async () => {
      const sessions = await getJson<{ blockingEventId: string; deferredCount: number }[]>(
        page,
        '/api/endpoints/Erp/blocked-sessions',
      );
      return sessions.find((s) => s.deferredCount > 0);
    });
    // A group resubmit gives the bulk pages a job; the payload is still invalid, so the session stays blocked.
    await page.goto(`${base}/failure-groups`);
    await page
      .locator('[data-testid=failure-groups] tr[data-signature] button:text-is("Resubmit all")')
      .first()
      .click();
    await page.locator('[data-testid=confirm-group-action] button:has-text("Confirm")').click();
    await page.locator('[data-testid=bulk-progress][data-done=true]').waitFor(WAIT);
    const [job] = await getJson<{ jobId: string }[]>(page, '/api/bulk-jobs?limit=1');
    if (!job) throw new Error('The group resubmit did not create a bulk job.');

    const event = `/endpoints/Erp/events/${encodeURIComponent(blocked.blockingEventId)}`;
    const shots: Shot[] = [
      { name: 'endpoints', path: '/', ready: '[data-testid=endpoints] tr[data-row-id=Erp]' },
      {
        name: 'endpoint-details',
        path: '/endpoints/Erp',
        ready: '[data-testid=blocked-sessions] tr[data-session-id]',
      },
      { name: 'event-details', path: event, ready: '[data-testid=error-details]' },
      {
        name: 'failure-groups',
        path: '/failure-groups',
        ready: '[data-testid=failure-groups] tr[data-signature]',
      },
      { name: 'bulk-operations', path: '/bulk-jobs', ready: '[data-testid=bulk-jobs] tr[data-job-id]' },
      {
        name: 'bulk-job',
        path: `/bulk-jobs/${encodeURIComponent(job.jobId)}`,
        ready: '[data-testid=bulk-items] tr',
      },
      {
        name: 'search',
        path: '/search?status=Failed,Deferred',
        ready: '[data-testid=search-results] tbody tr',
      },
      { name: 'metrics', path: '/charts', ready: 'figure.chart-card' },
      { name: 'health', path: '/health', ready: '[data-testid=last-seen]' },
      { name: 'topology', path: '/topology', ready: 'svg.topology' },
      { name: 'operations', path: '/operations', ready: 'main h1' },
      {
        name: 'dead-letters',
        path: '/dead-letters',
        ready: '[data-testid=dead-letter-overview] tr[data-input]',
      },
      {
        name: 'monitoring',
        path: '/monitoring',
        ready: '[data-testid=custom-checks] tr[data-check=erp-api]',
      },
      { name: 'admin-users', path: '/admin/users', ready: '[data-testid=users] tbody tr' },
      { name: 'admin-audit-log', path: '/admin/audit', ready: '[data-testid=audit-log] tbody tr' },
      { name: 'admin-heartbeat', path: '/admin/heartbeat', ready: 'input[name=intervalSeconds]' },
      { name: 'admin-alerts', path: '/admin/alerts', ready: '[data-testid=alert-subscriptions]' },
      { name: 'account', path: '/account', ready: 'input[name=tokenName]' },
      { name: 'not-found', path: '/no-such-page', ready: '[data-testid=not-found]' },
    ];
    for (const shot of shots) {
      for (const width of WIDTHS) await capture(page, { ...shot, path: `${base}${shot.path}` }, width);
    }
  } finally {
    await context.close();
    if (dev.child.exitCode === null) {
      const exited = new Promise((resolve) => dev.child.once('exit', resolve));
      dev.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
