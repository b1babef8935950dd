import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresPool } from '@nimbus/sql';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type Processes,
  type ResubmitCut,
  runAcceptanceScenario,
} from './support/acceptance-scenario.js';
import { assertCliBuilt, cleanEnv, eventually } from './support/cli-process.js';
import { browserAvailable, WAIT } from './support/operator-browser.js';

const hasBrowser = browserAvailable('production acceptance (browser)');
const CLUSTER_PORT = 16220;
/** The WebApp's PostgreSQL URL carries this `application_name`, so the test can find its connections. */
const WEBAPP_APPLICATION_NAME = 'nimbus-accept-webapp';

/**
 * SQLite: the WebApp's database connections are file handles inside its process, so nothing outside it can
 * close them but the end of the process. The WebApp is killed (SIGKILL: no graceful close), the resubmit runs
 * and completes while it is gone, then a new WebApp process opens the database again on the same port. The page,
 * never reloaded, saw the live indicator go off and must catch up with changes nobody pushed to it.
 */
async function killWebAppDuringResubmit(cut: ResubmitCut): Promise<void> {
  cut.processes.webapp.child.kill('SIGKILL');
  await cut.processes.webapp.exited;
  await cut.page.locator('.live.on').waitFor({ state: 'detached', ...WAIT });
  await cut.resubmitAndAwaitCompletion();
  expect(await cut.page.locator('[data-testid=blocked-sessions] tr', { hasText: 'C-2001' }).count()).toBe(1);
  await cut.startWebApp();
  await cut.page.locator('.live.on').waitFor(WAIT);
}

/**
 * PostgreSQL: every connection of the WebApp (store pool, LISTEN, identity, bulk jobs) is ended with
 * `pg_terminate_backend` again and again while the resubmit runs and completes, so the notifications of that
 * work never reach it; then the WebApp is left to reconnect, and the page must catch up.
 */
function terminateWebAppConnectionsDuringResubmit(databaseUrl: string) {
  return async (cut: ResubmitCut): Promise<void> => {
    const admin = openPostgresPool({
      connectionString: databaseUrl,
      applicationName: 'nimbus-accept-test',
      max: 1,
    });
    const terminateAll = async (): Promise<number> => {
      // In the select list, not the WHERE clause: there PostgreSQL may call it before filtering by name.
      const { rows } = await admin.query<{ ended: boolean }>(
        'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1',
        [WEBAPP_APPLICATION_NAME],
      );
      return rows.filter((row) => row.ended).length;
    };
    const readyz = async () => (await fetch(`${cut.webUrl}/readyz`)).status;
    try {
      let terminated = 0;
      await eventually(
        async () => {
          terminated += await terminateAll();
          return terminated > 0 ? true : undefined;
        },
        10_000,
        `a connection named ${WEBAPP_APPLICATION_NAME} to terminate`,
      );
      let cutting = true;
      const answers = new Set<number>();
      const keepCutting = (async () => {
        while (cutting) {
          terminated += await terminateAll();
          answers.add(await readyz());
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      try {
        await cut.resubmitAndAwaitCompletion();
      } finally {
        cutting = false;
        await keepCutting;
      }
      console.info(`production acceptance (PostgreSQL): ${terminated} WebApp connections terminated`);
      expect([...answers], '/readyz while its connections were being cut').toContain(503);
      await eventually(
        async () => ((await readyz()) === 200 ? true : undefined),
        30_000,
        '/readyz back to 200 once the WebApp reconnected',
      );
    } finally {
      await admin.end();
    }
  };
}

async function stopAll(processes: Partial<Processes>): Promise<void> {
  for (const daemon of [processes.adapters, processes.webapp, processes.resolver]) {
    if (daemon) expect(await daemon.stop()).toBe(0);
  }
}

describe.runIf(hasBrowser)('production shape, separate OS processes, a real browser', () => {
  it('SQLite: the browser sees the failure appear and, after a CLI resubmit made while the WebApp was killed, the session complete', {
    timeout: 180_000,
  }, async () => {
    assertCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-accept-sqlite-'));
    const processes = {} as Processes;
    try {
      const env = cleanEnv({
        NIMBUS_DATA_DIR: dir,
        NIMBUS_TEST_TRANSPORT_PATH: join(dir, 'transport.db'),
        NIMBUS_IDENTITY_ADMIN_PASSWORD: ADMIN.password,
      });
      await runAcceptanceScenario({
        env,
        profileDir: dir,
        processes,
        cutDuringResubmit: killWebAppDuringResubmit,
      });
      await stopAll(processes);
    } finally {
      for (const daemon of [processes.adapters, processes.webapp, processes.resolver]) await daemon?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('PostgreSQL (a cluster of the test own, stopped and restarted mid-test)', () => {
    let cluster: OwnPostgresCluster | null = null;
    afterAll(async () => {
      await cluster?.destroy();
    });

    it('the page catches up after the database went away and came back, and after the WebApp connections were terminated during the fix; /readyz says so meanwhile', {
      timeout: 240_000,
    }, async () => {
      assertCliBuilt();
      cluster = await startOwnPostgresCluster({ port: CLUSTER_PORT });
      const url = await cluster.createDatabase('nimbus_accept');
      const dir = mkdtempSync(join(tmpdir(), 'nimbus-accept-pg-'));
      const processes = {} as Processes;
      const env = cleanEnv({
        NIMBUS_DATA_DIR: dir,
        NIMBUS_STORE: 'postgres',
        NIMBUS_TRANSPORT: 'postgres',
        NIMBUS_POSTGRES_URL: url,
        NIMBUS_IDENTITY_ADMIN_PASSWORD: ADMIN.password,
      });
      const pg = cluster;
      try {
        await runAcceptanceScenario({
          env,
          webAppEnv: { ...env, NIMBUS_POSTGRES_URL: `${url}?application_name=${WEBAPP_APPLICATION_NAME}` },
          profileDir: dir,
          processes,
          cutDuringResubmit: terminateWebAppConnectionsDuringResubmit(url),
          cutDatabase: async (webUrl) => {
            await pg.stop();
            const down = await eventually(
              async () => {
                const response = await fetch(`${webUrl}/readyz`);
                return response.status === 503
                  ? ((await response.json()) as { checks: Record<string, unknown> })
                  : undefined;
              },
              15_000,
              '/readyz answering 503 while PostgreSQL is down',
            );
            expect(JSON.stringify(down.checks.store)).toContain('"ready":false');
            expect((await fetch(`${webUrl}/healthz`)).status).toBe(200);
            await pg.start();
            await eventually(
              async () => ((await fetch(`${webUrl}/readyz`)).status === 200 ? true : undefined),
              30_000,
              '/readyz back to 200 after PostgreSQL restarted',
            );
          },
        });
        await stopAll(processes);
      } finally {
        for (const daemon of [processes.adapters, processes.webapp, processes.resolver]) await daemon?.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
