import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

export interface ScenarioOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly profileDir: string;
  readonly processes: Processes;
  /** Cuts the WebApp's database connections and brings them back (PostgreSQL); called before the resubmit. */
  readonly cutDatabase?: (webUrl: string) => Promise<void>;
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
  processes.webapp = new CliDaemon(['webapp', '--port', '0', '--platform', '@nimbus/example-crm-erp'], env);
  const webUrl = (
    await processes.webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 40_000)
  )[1] as string;

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

    const resubmit = await runCli(
      ['events', 'resubmit', 'Erp', failedId, '--set', 'vatNumber=DK12345678', '--comment', 'acceptance'],
      env,
      30_000,
    );
    expect(resubmit.code, resubmit.stderr).toBe(0);

    // The session clears and no event of it is left unresolved, live.
    await page.locator('[data-testid=blocked-sessions] td.empty').waitFor({ timeout: 40_000 });
    await page.locator('[data-testid=events] td.empty').waitFor({ timeout: 40_000 });
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
