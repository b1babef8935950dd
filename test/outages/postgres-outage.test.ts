import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../chaos/harness/eventually.js';
import { handledKeys, readHandlerLog } from '../chaos/harness/handler-log.js';
import type { ManagedProcess } from '../chaos/harness/managed-process.js';
import { runCliOnce } from '../chaos/harness/run-cli.js';
import { Stack } from '../chaos/harness/stack.js';
import { WebAppClient } from '../chaos/harness/webapp-client.js';

/** The long outage; `NIMBUS_OUTAGE_MS` shortens it locally (the acceptance is ≥ 60 s). */
const OUTAGE_MS = Number(process.env.NIMBUS_OUTAGE_MS ?? 60_000);

const run = await shouldRunPostgresSuite('PostgreSQL outage (own cluster)');

describe.runIf(run)('every long-running process rides out a PostgreSQL restart and a long outage', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'nimbus-outage-'));
  let cluster: OwnPostgresCluster;
  let stack: Stack;
  let publisher: ManagedProcess;
  let webapp: WebAppClient;
  let published = 0;

  const publish = async (orders: number, tag: string) => {
    const from = published;
    for (let i = 0; i < orders; i++) {
      published += 1;
      publisher.send(JSON.stringify({ orderId: `${tag}-${i % 3}`, n: Math.floor(i / 3) + 1, mode: 'ok' }));
    }
    await eventually(
      () => (publisher.output.match(/^published /gm)?.length ?? 0) >= published || undefined,
      OUTAGE_MS + 60_000,
      `${published - from} publishes of ${tag}`,
    );
  };
  const allHandled = (what: string) =>
    eventually(
      () => (handledKeys(readHandlerLog(stack.handlerLog)).size >= published ? true : undefined),
      60_000,
      what,
    );
  const storeCompleted = () =>
    eventually(
      async () => {
        const { status, body } = await webapp.call<{ events: unknown[] }>(
          'GET',
          '/api/endpoints/Warehouse/events?status=Completed&pageSize=200',
        );
        return status === 200 && body.events.length >= published ? body.events.length : undefined;
      },
      60_000,
      'the store to show every event Completed',
    );

  beforeAll(async () => {
    cluster = await startOwnPostgresCluster({ port: 15520 });
    const url = await cluster.createDatabase('nimbus');
    stack = new Stack({ backend: { dialect: 'postgres', url }, workDir, webappPort: 15521 });
    const migrate = await runCliOnce(['store', 'migrate'], stack.cliEnv());
    expect(migrate.code, migrate.stderr).toBe(0);
    await stack
      .resolver()
      .start()
      .waitFor(/NimBus resolver ready/, 30_000);
    await stack
      .webapp()
      .start()
      .waitFor(/NimBus webapp ready/, 30_000);
    await Promise.all(['host-1', 'host-2'].map((name) => stack.host(name).start().waitFor(/ready/, 30_000)));
    publisher = stack.publisher().start();
    await publisher.waitFor(/publisher ready/, 30_000);
    webapp = new WebAppClient(stack.webappUrl, 'admin@local', stack.adminPassword);
    await webapp.signIn();
  }, 90_000);

  afterAll(async () => {
    await stack?.stopAll();
    await cluster?.destroy();
    if (!process.env.NIMBUS_KEEP_WORKDIR) rmSync(workDir, { recursive: true, force: true });
  });

  it('a restart: nobody exits, LISTEN and pools come back, messages published after it are handled and projected', async () => {
    await publish(9, 'before');
    await allHandled('events published before the restart');

    await cluster.restart(1000);
    await sleep(500);
    await publish(9, 'after-restart');
    await allHandled('events published after the restart');
    expect(await storeCompleted()).toBe(published);
    expect(stack.unexpectedExits()).toEqual([]);
  }, 120_000);

  it(
    `an outage of ${OUTAGE_MS / 1000} s: nobody exits, work published meanwhile waits and is handled after it`,
    async () => {
      await cluster.stop();
      const down = Date.now();
      // Publishes during the outage are retried by the publisher until the database is back.
      const duringOutage = publish(6, 'during-outage');
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - down)));
      for (const process of stack.processes.values())
        expect(process.alive, `${process.name} alive during the outage`).toBe(true);
      await cluster.start();
      await duringOutage;
      await publish(6, 'after-outage');
      await allHandled('events published during and after the outage');
      expect(await storeCompleted()).toBe(published);
      expect(stack.unexpectedExits()).toEqual([]);
      // Logged once per outage, not once per attempt: a few lines per process, not hundreds.
      for (const name of ['resolver', 'host-1', 'host-2']) {
        const process = stack.processes.get(name)!;
        const warnings = process.output.split('\n').filter((line) => /warn|error/i.test(line)).length;
        expect(warnings, `${name} log lines about the outage:\n${process.output.slice(-3000)}`).toBeLessThan(
          40,
        );
      }
    },
    OUTAGE_MS + 150_000,
  );
});
