import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../chaos/harness/eventually.js';
import { runCliOnce } from '../chaos/harness/run-cli.js';
import { CLI_BIN, PLATFORM_MODULE } from '../chaos/harness/stack.js';
import { StreamedProcess } from './json-process.js';

const HOST = fileURLToPath(new URL('./fixtures/json-host.mjs', import.meta.url));
const WEBAPP_PORT = 15541;
const run = await shouldRunPostgresSuite('JSON logs through a PostgreSQL outage (own cluster)');

describe.runIf(run)(
  'every process logs JSON lines only, through a normal run and a PostgreSQL outage',
  () => {
    const workDir = mkdtempSync(join(tmpdir(), 'nimbus-json-logs-'));
    let cluster: OwnPostgresCluster;
    let url: string;
    const processes: StreamedProcess[] = [];
    let host: StreamedProcess;
    let healthUrl: string;

    const cliEnv = (): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = {};
      for (const [key, value] of Object.entries(process.env))
        if (!key.startsWith('NIMBUS_')) env[key] = value;
      return {
        ...env,
        NIMBUS_DATA_DIR: join(workDir, 'data'),
        NIMBUS_STORE: 'postgres',
        NIMBUS_TRANSPORT: 'postgres',
        NIMBUS_POSTGRES_URL: url,
        NIMBUS_IDENTITY_ADMIN_PASSWORD: 'Json!Logs123',
        NIMBUS_LOG_FORMAT: 'json',
        NIMBUS_LOG_LEVEL: 'info',
      };
    };
    const record = (p: StreamedProcess, match: (r: Record<string, unknown>) => boolean, what: string) =>
      eventually(() => p.records().find(match), 90_000, `${p.name}: ${what}`);
    const ready = async (expected: number) => {
      const response = await fetch(`http://127.0.0.1:${WEBAPP_PORT}/readyz`);
      return response.status === expected ? true : undefined;
    };

    beforeAll(async () => {
      cluster = await startOwnPostgresCluster({ port: 15540 });
      url = await cluster.createDatabase('nimbus');
      const migrate = await runCliOnce(['store', 'migrate'], cliEnv());
      expect(migrate.code, migrate.stderr).toBe(0);
      const resolver = new StreamedProcess(
        'resolver',
        CLI_BIN,
        ['resolver', '--platform', PLATFORM_MODULE, '--health-port', '0', '--verbose'],
        cliEnv(),
      );
      processes.push(resolver);
      const health = await record(resolver, (r) => /health at/.test(String(r.msg)), 'health URL');
      healthUrl = (String(health.msg).match(/(http:\/\/\S+)/) as RegExpMatchArray)[1] as string;
      const webapp = new StreamedProcess(
        'webapp',
        CLI_BIN,
        ['webapp', '--platform', PLATFORM_MODULE, '--port', String(WEBAPP_PORT), '--verbose'],
        cliEnv(),
      );
      processes.push(webapp);
      await record(webapp, (r) => /NimBus webapp ready/.test(String(r.msg)), 'ready');
      host = new StreamedProcess('adapter-host', HOST, [], { ...process.env, DATABASE_URL: url });
      processes.push(host);
      await record(host, (r) => r.msg === 'json host ready', 'ready');
    }, 240_000);

    afterAll(async () => {
      for (const p of processes.reverse()) await p.stop();
      await cluster?.destroy();
      rmSync(workDir, { recursive: true, force: true });
    });

    it('logs a permanent handler failure and a dead-letter once each, with endpoint, session and event id', {
      timeout: 120_000,
    }, async () => {
      host.send(JSON.stringify({ orderId: 'ok-1', n: 1, mode: 'ok' }));
      host.send(JSON.stringify({ orderId: 'block-1', n: 1, mode: 'block' }));
      host.send(JSON.stringify({ orderId: 'dead-1', n: 1, mode: 'permanent' }));
      const failed = await record(host, (r) => /A handler failed/.test(String(r.msg)), 'the handler failure');
      const dead = await record(
        host,
        (r) => /Dead-lettered a message/.test(String(r.msg)),
        'the dead-letter',
      );
      await record(host, (r) => r.msg === 'handled' && r.orderId === 'ok-1', 'the handled order');
      expect(failed).toMatchObject({ level: 50, endpoint: 'Warehouse', sessionId: 'block-1' });
      expect(dead).toMatchObject({ level: 50, endpoint: 'Warehouse', sessionId: 'dead-1' });
      expect(typeof failed.eventId).toBe('string');
      expect(typeof dead.eventId).toBe('string');
      expect((failed.err as { message?: string }).message).toContain('warehouse refused order block-1/1');
      // Once each, though the engine tells observers "failed" and "deadLettered" for the dead-letter.
      const about = (eventId: unknown) =>
        host.records().filter((r) => r.eventId === eventId && r.level === 50);
      expect(about(failed.eventId)).toHaveLength(1);
      expect(about(dead.eventId)).toHaveLength(1);
    });

    it('writes no line that is not JSON, in any process, while PostgreSQL is stopped and started again', {
      timeout: 240_000,
    }, async () => {
      await eventually(() => ready(200), 60_000, 'the WebApp ready before the outage');
      await cluster.stop();
      await eventually(() => ready(503), 60_000, 'the WebApp not ready while PostgreSQL is down');
      host.send(JSON.stringify({ orderId: 'during-outage', n: 1, mode: 'ok' }));
      // Long enough for every reconnect loop to fail several times and say so.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      await cluster.start();
      await eventually(() => ready(200), 90_000, 'the WebApp ready again');
      await eventually(
        async () => ((await fetch(`${healthUrl}/readyz`)).status === 200 ? true : undefined),
        90_000,
        'the Resolver ready again',
      );
      await record(
        host,
        (r) => r.msg === 'handled' && r.orderId === 'during-outage',
        'the order published in the outage',
      );
      for (const p of processes) expect(await p.stop(), p.name).toBe(0);
      const notJson = processes.flatMap((p) => p.notJson());
      expect(notJson).toEqual([]);
      // The processes did talk: each wrote records, and the outage left warnings behind.
      for (const p of processes) expect(p.records().length, p.name).toBeGreaterThan(1);
      const warnings = processes.flatMap((p) => p.records().filter((r) => Number(r.level) >= 40));
      expect(warnings.length).toBeGreaterThan(0);
    });
  },
);
