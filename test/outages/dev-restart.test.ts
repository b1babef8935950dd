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

describe.runIf(run)('nimbus dev on PostgreSQL rides out a database restart', () => {
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
      env: { ...env, NIMBUS_STORE: 'postgres', NIMBUS_TRANSPORT: 'postgres', NIMBUS_POSTGRES_URL: url },
      logFile: join(workDir, 'dev.out'),
    });
    await dev.start().waitFor(/NimBus dev ready at/, 60_000);
  }, 90_000);

  afterAll(async () => {
    await dev?.close();
    await cluster?.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('keeps running, and its sample traffic is projected again after the restart', async () => {
    const client = new WebAppClient('http://127.0.0.1:15525', 'admin@local', 'Local!Admin123');
    await client.signIn();
    const completed = async () => {
      const { status, body } = await client.call<{ events: unknown[] }>(
        'GET',
        '/api/endpoints/Erp/events?status=Completed&pageSize=200',
      );
      return status === 200 ? body.events.length : undefined;
    };
    const before = await eventually(
      async () => (((await completed()) ?? 0) > 0 ? completed() : undefined),
      30_000,
      'sample traffic',
    );

    await cluster.restart(3000);

    const after = await eventually(
      async () => {
        const count = await completed();
        return count !== undefined && count > before! ? count : undefined;
      },
      60_000,
      'events completed after the restart',
    );
    expect(after).toBeGreaterThan(before!);
    expect(dev.alive).toBe(true);
    expect(dev.unexpectedExits).toEqual([]);
  }, 120_000);
});
