import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CliDaemon, eventually, runCli } from './cli-process.js';
import { markNoReload, openBrowser, signIn, stillNoReload, WAIT } from './operator-browser.js';

const ADAPTER_HOST = fileURLToPath(new URL('./sample-adapter-host.mjs', import.meta.url));
const UI_INDEX = fileURLToPath(new URL('../../../webapp/ui/dist/index.html', import.meta.url));
export const ADMIN = { email: 'admin@local', password: 'Acceptance!Pass123' };

export interface Processes {
  resolver: CliDaemon;
  webapp: CliDaemon;
  adapters: CliDaemon | null;
}

/** What a cut made while the fix flows can use: the page, and the WebApp process to kill and start again. */
export interface ResubmitCut {
  readonly webUrl: string;
  readonly page: Page;
  /** `nimbus events resubmit` from its own process, then waits until the store has C-2001's three events Completed. */
  readonly resubmitAndAwaitCompletion: () => Promise<void>;
  readonly processes: Processes;
  /** Starts `nimbus webapp` again on the same port (after the test killed it). */
  readonly startWebApp: () => Promise<void>;
}

export interface ScenarioOptions {
  readonly env: NodeJS.ProcessEnv;
  /** The WebApp's own environment when it differs (e.g. an `application_name` in its PostgreSQL URL). */
  readonly webAppEnv?: NodeJS.ProcessEnv;
  readonly profileDir: string;
  readonly processes: Processes;
  /** Cuts the WebApp's database connections and brings them back (PostgreSQL); called before the resubmit. */
  readonly cutDatabase?: (webUrl: string) => Promise<void>;
  /**
   * Runs the resubmit (`cut.resubmitAndAwaitCompletion`) while the WebApp's database connection is cut, and
   * restores it afterwards: the page must then catch up with changes it was never told about.
   */
  readonly cutDuringResubmit?: (cut: ResubmitCut) => Promise<void>;
}

/** A port nobody listens on now, so a restarted WebApp can serve the page at the same address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** The statuses of C-2001's events as `nimbus events list --json` (its own process) reads them from the store. */
async function sessionStatuses(env: NodeJS.ProcessEnv): Promise<string[]> {
  const listed = await runCli(['events', 'list', '--endpoint', 'Erp', '--session', 'C-2001', '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { resolutionStatus: string }[]).map((row) => row.resolutionStatus);
}

/**
 * The production shape as separate OS processes: `nimbus resolver`, `nimbus webapp`, an adapter host and, for
 * the fix, `nimbus events resubmit`. A signed-in browser sees the failure appear and, after the CLI's resubmit,
 * the blocked session clear and its events complete, without a reload.
 */
export async function runAcceptanceScenario(options: ScenarioOptions): Promise<void> {
  const { env, processes } = options;
  if (!existsSync(UI_INDEX))
    throw new Error(`${UI_INDEX} is missing: npm run build first (it builds the UI)`);
  processes.resolver = new CliDaemon(
    ['resolver', '--migration-mode', 'AutoApply', '--platform', '@nimbus/example-crm-erp'],
    env,
  );
  await processes.resolver.waitFor(/NimBus resolver ready/, 40_000);
  const webPort = await freePort();
  const startWebApp = async (): Promise<string> => {
    processes.webapp = new CliDaemon(
      [
        'webapp',
        '--port',
        String(webPort),
        '--migration-mode',
        'AutoApply',
        '--platform',
        '@nimbus/example-crm-erp',
      ],
      options.webAppEnv ?? env,
    );
    return (await processes.webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 40_000))[1] as string;
  };
  const webUrl = await startWebApp();

  const { context, page } = await openBrowser(options.profileDir);
  try {
    await signIn(page, webUrl, '/endpoints/Erp', ADMIN.email, ADMIN.password);
    await page.locator('.live.on').waitFor(WAIT);
    await page.locator('[data-testid=blocked-sessions] td.empty').waitFor(WAIT);
    await markNoReload(page);

    processes.adapters = new CliDaemon([], env, ADAPTER_HOST);
    await processes.adapters.waitFor(/adapters ready/, 30_000);

    // Written by the Resolver process, pushed to the WebApp process, shown by the browser.
    const blockedRow = page.locator('[data-testid=blocked-sessions] tr', { hasText: 'C-2001' });
    await blockedRow.filter({ hasText: '2 deferred' }).waitFor(WAIT);
    await blockedRow.locator('[data-status=Failed]').waitFor(WAIT);
    const failedId = (await blockedRow.locator('a').first().textContent())?.trim() ?? '';
    expect(failedId).not.toBe('');

    if (options.cutDatabase) await options.cutDatabase(webUrl);

    const resubmit = async () => {
      const result = await runCli(
        ['events', 'resubmit', 'Erp', failedId, '--set', 'vatNumber=DK12345678', '--comment', 'acceptance'],
        env,
        30_000,
      );
      expect(result.code, result.stderr).toBe(0);
    };
    if (options.cutDuringResubmit) {
      await options.cutDuringResubmit({
        webUrl,
        page,
        processes,
        startWebApp: async () => {
          await startWebApp();
        },
        resubmitAndAwaitCompletion: async () => {
          await resubmit();
          await eventually(
            async () => {
              const statuses = await sessionStatuses(env);
              return statuses.length === 3 && statuses.every((s) => s === 'Completed') ? true : undefined;
            },
            40_000,
            'C-2001 completed in the store while the WebApp was cut off',
          );
        },
      });
    } else {
      await resubmit();
    }

    // The session clears and no event of it is left unresolved, live.
    await page.locator('[data-testid=blocked-sessions] td.empty').waitFor({ timeout: 40_000 });
    // A healthy endpoint lists its latest events of every status: C-2001's three rows turn Completed.
    await expect
      .poll(
        () =>
          page
            .locator('[data-testid=events] tr', { hasText: 'C-2001' })
            .locator('[data-status]')
            .evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-status'))),
        { timeout: 40_000 },
      )
      .toEqual(['Completed', 'Completed', 'Completed']);
    expect(await stillNoReload(page)).toBe(true);
    const rows = await eventually(
      async () => {
        const body = (await page.evaluate(async () => {
          const response = await fetch('/api/endpoints/Erp/events?sessionId=C-2001&pageSize=10');
          return response.json();
        })) as { events: { status: string }[] };
        return body.events.length === 3 ? body.events : undefined;
      },
      20_000,
      'the three events of C-2001',
    );
    expect(rows.map((r) => r.status)).toEqual(['Completed', 'Completed', 'Completed']);
    expect(processes.adapters.stdout).toContain('Erp applied customer C-2001');
  } finally {
    await context.close();
  }
}
