import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyDriverError,
  OutageLog,
  openPostgresPool,
  ReconnectingPgListener,
  startWhenDatabaseAnswers,
} from '../src/index.js';

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe.runIf(await shouldRunPostgresSuite('@nimbus/sql restart'))(
  'a PostgreSQL restart (own cluster)',
  () => {
    let cluster: OwnPostgresCluster;
    beforeAll(async () => {
      cluster = await startOwnPostgresCluster({ port: 15510 });
    }, 60_000);
    afterAll(async () => {
      await cluster?.destroy();
    });

    it('the pool and the LISTEN client survive it; LISTEN comes back and says it reconnected', async () => {
      const connectionErrors: Error[] = [];
      const pool = openPostgresPool({
        connectionString: cluster.url,
        max: 3,
        onConnectionError: (e) => connectionErrors.push(e),
      });
      const notifications: string[] = [];
      const connected: boolean[] = [];
      const logged: string[] = [];
      const logger = {
        warn: (_: unknown, message: string) => logged.push(`warn ${message}`),
        info: (_: unknown, message: string) => logged.push(`info ${message}`),
      };
      const listener = new ReconnectingPgListener({
        connectionString: cluster.url,
        channels: ['nimbus_test'],
        events: {
          onNotification: (_, payload) => notifications.push(payload),
          onConnected: ({ reconnected }) => connected.push(reconnected),
        },
        logger,
        backoff: { initialMs: 50, maxMs: 500 },
      });
      try {
        await listener.start();
        expect(connected).toEqual([false]);
        const idle = await pool.connect();
        idle.release();
        const held = await pool.connect(); // checked out across the restart

        await cluster.restart(1500);

        await until(() => connected.length === 2);
        expect(connected).toEqual([false, true]);
        expect(connectionErrors.length).toBeGreaterThan(0);
        const stale = await held.query('select 1').catch((e: unknown) => e);
        expect(classifyDriverError(stale).isRetryable).toBe(true);
        held.release(true);
        await until(async () => {
          await pool.query(`select pg_notify('nimbus_test', 'after restart')`).catch(() => undefined);
          return notifications.includes('after restart');
        });
        // One warning when it went down, one line when it came back; not one per attempt.
        expect(logged.filter((l) => l.startsWith('warn'))).toHaveLength(1);
        expect(logged.filter((l) => l.startsWith('info'))).toHaveLength(1);
      } finally {
        await listener.stop();
        await pool.end();
      }
    }, 60_000);

    it('startWhenDatabaseAnswers: an opener started while the database is down waits for it, logging the outage once', async () => {
      await cluster.stop();
      const logged: string[] = [];
      const waiting: string[] = [];
      const logger = {
        warn: (_: unknown, message: string) => logged.push(`warn ${message}`),
        info: (_: unknown, message: string) => logged.push(`info ${message}`),
      };
      let attempts = 0;
      const started = startWhenDatabaseAnswers(
        async () => {
          attempts += 1;
          const pool = openPostgresPool({ connectionString: cluster.url, max: 1 });
          try {
            await pool.query('select 1');
            return pool;
          } catch (error) {
            await pool.end();
            throw error;
          }
        },
        { what: 'test adapter host', logger, onWaiting: (reason) => waiting.push(reason) },
      );
      await until(() => attempts >= 3);
      await cluster.start();
      const pool = await started;
      try {
        expect((await pool!.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
        expect(waiting[0]).toMatch(/^waiting for the database \(connection \(ECONNREFUSED\)/);
        expect(logged).toEqual([
          'warn test adapter host start: database unavailable; retrying with back-off (logged again when it recovers)',
          expect.stringMatching(/^info test adapter host start: database reachable again after \d+ ms/),
        ]);
      } finally {
        await pool?.end();
      }
    }, 60_000);

    it('OutageLog reports an outage once, then its end with the attempts', () => {
      const lines: string[] = [];
      let now = 1000;
      const log = new OutageLog(
        { warn: (_, m) => lines.push(m), info: (_, m) => lines.push(m) },
        'worker',
        () => now,
      );
      for (let i = 0; i < 5; i++) log.failed(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
      now = 4000;
      log.succeeded();
      log.succeeded();
      expect(lines).toEqual([
        'worker: database unavailable; retrying with back-off (logged again when it recovers)',
        'worker: database reachable again after 3000 ms (5 failed attempt(s))',
      ]);
    });
  },
);
