import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../chaos/harness/eventually.js';
import { ManagedProcess } from '../chaos/harness/managed-process.js';
import { CLI_BIN } from '../chaos/harness/stack.js';
import { WebAppClient } from '../chaos/harness/webapp-client.js';

const run = await shouldRunPostgresSuite('nimbus dev through a PostgreSQL restart (own cluster)');

describe.runIf(run)('nimbus dev on PostgreSQL rides out a database outage', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-restart-'));
  let cluster: OwnPostgresCluster;
  let dev: ManagedProcess;

  beforeAll(async () => {
    cluster = await startOwnPostgresCluster({ port: 15524 });
    const url = await cluster.createDatabase('nimbus');
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('NIMBUS_')) env[key] = value;
    dev = new ManagedProcess({
      name: 'dev',
      script: CLI_BIN,
      args: ['dev', '--data-dir', join(workDir, 'data'), '--port', '15525', '--traffic-interval', '500'],
      env: {
        ...env,
        NIMBUS_STORE: 'postgres',
        NIMBUS_TRANSPORT: 'postgres',
        NIMBUS_POSTGRES_URL: url,
        // Seeded through the setting: the admin is not asked to replace it at the first sign-in.
        NIMBUS_IDENTITY_ADMIN_PASSWORD: 'Local!Admin123',
      },
      logFile: join(workDir, 'dev.out'),
    });
    await dev.start().waitFor(/NimBus dev ready at/, 60_000);
  }, 90_000);

  afterAll(async () => {
    await dev?.close();
    await cluster?.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  // Issue 12.1 for `nimbus dev` (Resolver, WebApp and the sample adapters in one process): when the database goes
  // away, every connection it holds breaks, the idle pooled ones, the ones checked out between two queries and the
  // dedicated LISTEN connections alike. Without an 'error' listener on each of them the process dies at once; it
  // must instead stay up, report the outage on /readyz, and carry on by itself when the database is back.
  it('stays up through a 10 s outage, reports it on /readyz meanwhile, and projects its traffic again afterwards', async () => {
    const client = new WebAppClient('http://127.0.0.1:15525', 'admin@local', 'Local!Admin123');
    await client.signIn();
    const completed = async () => {
      const { status, body } = await client.call<{ events: unknown[] }>(
        'GET',
        '/api/endpoints/Erp/events?status=Completed&pageSize=200',
      );
      return status === 200 ? body.events.length : undefined;
    };
    const readiness = async () => (await fetch('http://127.0.0.1:15525/readyz')).status;
    const before = await eventually(
      async () => (((await completed()) ?? 0) > 0 ? completed() : undefined),
      30_000,
      'sample traffic',
    );
    expect(await readiness()).toBe(200);

    await cluster.stop();
    const downSince = Date.now();
    // Readiness says so while the database is down (and the process answers at all).
    expect(
      await eventually(async () => ((await readiness()) === 503 ? 503 : undefined), 15_000, '/readyz 503'),
    ).toBe(503);
    while (Date.now() - downSince < 10_000) {
      expect(dev.alive, `nimbus dev died during the outage:\n${dev.output.slice(-2000)}`).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    }
    await cluster.start();

    await eventually(
      async () => ((await readiness()) === 200 ? true : undefined),
      60_000,
      '/readyz 200 again',
    );
    const after = await eventually(
      async () => {
        const count = await completed();
        return count !== undefined && count > before! ? count : undefined;
      },
      60_000,
      'events completed after the outage',
    );
    expect(after).toBeGreaterThan(before!);
    expect(dev.alive).toBe(true);
    expect(dev.unexpectedExits).toEqual([]);
  }, 150_000);
});
