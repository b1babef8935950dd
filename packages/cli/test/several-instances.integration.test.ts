import { fileURLToPath } from 'node:url';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, eventually } from './support/cli-process.js';
import { parsePrometheus, sumOf } from './support/prometheus-text.js';

const runPg = await shouldRunPostgresSuite('several instances (PostgreSQL, separate processes)');
const ADAPTER_HOST = fileURLToPath(new URL('./support/sample-adapter-host.mjs', import.meta.url));
const PASSWORD = 'Instances!Pass123';

interface Session {
  cookie: string;
  csrf: string;
}

describe.runIf(runPg)(
  'two Resolvers and two WebApps on one PostgreSQL database (separate OS processes)',
  () => {
    let database: TemporaryDatabase;
    let env: NodeJS.ProcessEnv;
    const resolvers: { daemon: CliDaemon; health: string }[] = [];
    const webapps: { daemon: CliDaemon; url: string }[] = [];
    let adapters: CliDaemon | null = null;

    const startWebApp = async () => {
      // Instances starting together apply the WebApp tables' migrations once (the migration lock).
      const daemon = new CliDaemon(
        ['webapp', '--port', '0', '--migration-mode', 'AutoApply', '--platform', '@nimbus/example-crm-erp'],
        env,
      );
      const url = (await daemon.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 40_000))[1] as string;
      return { daemon, url };
    };

    beforeAll(async () => {
      assertCliBuilt();
      database = await createTemporaryDatabase('nimbus_instances');
      env = cleanEnv({
        NIMBUS_STORE: 'postgres',
        NIMBUS_TRANSPORT: 'postgres',
        NIMBUS_POSTGRES_URL: database.url,
        NIMBUS_IDENTITY_ADMIN_PASSWORD: PASSWORD,
      });
      for (let i = 0; i < 2; i++) {
        const daemon = new CliDaemon(
          [
            'resolver',
            '--migration-mode',
            'AutoApply',
            '--health-port',
            '0',
            '--platform',
            '@nimbus/example-crm-erp',
          ],
          env,
        );
        const health = (await daemon.waitFor(/health at (http:\/\/\S+)/, 40_000))[1] as string;
        await daemon.waitFor(/NimBus resolver ready/, 40_000);
        resolvers.push({ daemon, health });
      }
      webapps.push(await startWebApp(), await startWebApp());
    }, 180_000);

    afterAll(async () => {
      await adapters?.stop();
      for (const w of webapps) await w.daemon.stop();
      for (const r of resolvers) await r.daemon.stop();
      await database?.drop();
    });

    const signIn = async (url: string): Promise<Session> => {
      const response = await fetch(`${url}/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@local', password: PASSWORD }),
      });
      expect(response.status).toBe(200);
      const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] as string);
      const csrf = cookies.find((c) => c.startsWith('NimBus.Csrf='))?.split('=')[1] ?? '';
      return { cookie: cookies.join('; '), csrf };
    };
    const get = async <T>(url: string, session: Session): Promise<T> => {
      const response = await fetch(url, { headers: { cookie: session.cookie } });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };

    it('projects every message once, both Resolvers share the work, and nothing is left behind', {
      timeout: 120_000,
    }, async () => {
      adapters = new CliDaemon([], { ...env, NIMBUS_TEST_TRAFFIC_MS: '40' }, ADAPTER_HOST);
      await adapters.waitFor(/adapters ready/, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      adapters.child.kill('SIGUSR2');
      const published = Number((await adapters.waitFor(/traffic stopped, published (\d+)/, 10_000))[1]);
      expect(published).toBeGreaterThan(40);

      const handlersIdle = async () => {
        const c = new pg.Client({ connectionString: database.url });
        await c.connect();
        try {
          const rows = await c.query(
            "select count(*) as n from nimbus.unresolved_events where status = 'Pending'",
          );
          return Number(rows.rows[0].n) === 0 ? true : undefined;
        } finally {
          await c.end();
        }
      };
      await eventually(handlersIdle, 40_000, 'every handled event out of Pending');
      const scrapeAll = () =>
        Promise.all(
          resolvers.map(async (r) => parsePrometheus(await (await fetch(`${r.health}/metrics`)).text())),
        );
      await eventually(
        async () => {
          const scrapes = await scrapeAll();
          return scrapes.every((s) => sumOf(s, 'nimbus_resolver_lag_seconds') === 0) ? true : undefined;
        },
        40_000,
        'both Resolvers with nothing left to project',
      );
      const writes = (await scrapeAll()).map((s) =>
        sumOf(s, 'nimbus_resolver_writes_total', { nimbus_outcome: 'completed' }),
      );
      for (const count of writes) expect(count).toBeGreaterThan(0);

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const duplicates = await client.query(
          'select message_id from nimbus.messages group by message_id having count(*) > 1',
        );
        expect(duplicates.rows).toEqual([]);
        const stored = Number((await client.query('select count(*) as n from nimbus.messages')).rows[0].n);
        // Every projected message has exactly one history row; the two Resolvers together wrote no more than that.
        expect(stored).toBeGreaterThanOrEqual(published);
        // No double work: the two Resolvers together wrote each handled event's completion exactly once.
        const completions = Number(
          (
            await client.query(
              "select count(*) as n from nimbus.messages where message_type = 'ResolutionResponse'",
            )
          ).rows[0].n,
        );
        const completionWrites = (await scrapeAll())
          .map((s) => sumOf(s, 'nimbus_resolver_writes_total', { nimbus_message_type: 'ResolutionResponse' }))
          .reduce((a, b) => a + b, 0);
        expect(completions).toBeGreaterThan(20);
        expect(completionWrites).toBe(completions);
        const pending = await client.query(
          "select endpoint_id, session_id, status from nimbus.unresolved_events where status in ('Pending') ",
        );
        expect(pending.rows).toEqual([]);
        expect(await adapters.stop()).toBe(0);
        adapters = null;
      } finally {
        await client.end();
      }
    });

    it('a user signed in on one WebApp is signed in on the other; a bulk job started on one shows its progress on both and after a restart', {
      timeout: 120_000,
    }, async () => {
      const [a, b] = webapps as [{ daemon: CliDaemon; url: string }, { daemon: CliDaemon; url: string }];
      const session = await signIn(a.url);
      const blocked = await get<{ sessionId: string; blockingEventId: string }[]>(
        `${b.url}/api/endpoints/Erp/blocked-sessions`,
        session,
      );
      const failedId = blocked.find((s) => s.sessionId === 'C-2001')?.blockingEventId;
      expect(failedId).toBeTruthy();

      const started = await fetch(`${a.url}/api/endpoints/Erp/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
        body: JSON.stringify({ action: 'skip', eventIds: [failedId, 'no-such-event-1', 'no-such-event-2'] }),
      });
      expect(started.status).toBe(202);
      const { jobId } = (await started.json()) as { jobId: string };
      type Job = {
        processed: number;
        succeeded: number;
        failed: number;
        done: boolean;
        interrupted: boolean;
      };
      const finished = await eventually(
        async () => {
          const job = await get<Job>(`${b.url}/api/bulk-jobs/${jobId}`, session);
          return job.done ? job : undefined;
        },
        30_000,
        'the bulk job done, as seen from the other WebApp',
      );
      expect(finished).toMatchObject({
        processed: 3,
        succeeded: 1,
        failed: 2,
        done: true,
        interrupted: false,
      });

      expect(await a.daemon.stop()).toBe(0);
      const restarted = await startWebApp();
      webapps[0] = restarted;
      expect(await get<Job>(`${restarted.url}/api/bulk-jobs/${jobId}`, session)).toEqual(
        await get<Job>(`${b.url}/api/bulk-jobs/${jobId}`, session),
      );
    });
  },
);
