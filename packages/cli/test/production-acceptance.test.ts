import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, type Processes, runAcceptanceScenario } from './support/acceptance-scenario.js';
import { assertCliBuilt, cleanEnv, eventually } from './support/cli-process.js';
import { browserAvailable } from './support/operator-browser.js';

const hasBrowser = browserAvailable('production acceptance (browser)');
const CLUSTER_PORT = 16220;

async function stopAll(processes: Partial<Processes>): Promise<void> {
  for (const daemon of [processes.adapters, processes.webapp, processes.resolver]) {
    if (daemon) expect(await daemon.stop()).toBe(0);
  }
}

describe.runIf(hasBrowser)('production shape, separate OS processes, a real browser', () => {
  it('SQLite: the browser sees the failure appear and, after a CLI resubmit, the session complete', {
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
      await runAcceptanceScenario({ env, profileDir: dir, processes });
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

    it('the page catches up after the database went away and came back; /readyz says so meanwhile', {
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
          profileDir: dir,
          processes,
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
