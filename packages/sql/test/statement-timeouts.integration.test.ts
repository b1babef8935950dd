import { shouldRunPostgresSuite, TEST_POSTGRES_URL } from '@nimbus/testing/postgres';
import { describe, expect, it } from 'vitest';
import { classifyDriverError, openPostgresClient, openPostgresPool } from '../src/index.js';

describe.runIf(await shouldRunPostgresSuite('@nimbus/sql statement timeouts'))(
  'statementTimeoutMs and lockTimeoutMs of a PostgreSQL pool',
  () => {
    it('are the session settings of every connection, and a statement that waits for a lock gives up as busy', async () => {
      const pool = openPostgresPool({
        connectionString: TEST_POSTGRES_URL,
        max: 2,
        statementTimeoutMs: 4_000,
        lockTimeoutMs: 700,
      });
      const holder = openPostgresClient({ connectionString: TEST_POSTGRES_URL });
      await holder.connect();
      const table = `nimbus_lock_probe_${process.pid}`;
      try {
        const settings = await pool.query(
          "select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock",
        );
        expect(settings.rows[0]).toEqual({ statement: '4s', lock: '700ms' });

        await holder.query(`create table if not exists ${table} (id int)`);
        await holder.query('begin');
        await holder.query(`lock table ${table} in access exclusive mode`);
        const started = Date.now();
        const error = await pool.query(`select * from ${table}`).catch((e: unknown) => e);
        expect(Date.now() - started).toBeLessThan(3_500);
        expect(classifyDriverError(error)).toEqual({ isRetryable: true, reason: 'busy', code: '55P03' });

        const short = openPostgresPool({
          connectionString: TEST_POSTGRES_URL,
          max: 1,
          statementTimeoutMs: 200,
        });
        const cancelled = await short.query('select pg_sleep(2)').catch((e: unknown) => e);
        await short.end();
        expect(classifyDriverError(cancelled)).toMatchObject({ reason: 'busy', code: '57014' });
      } finally {
        await holder.query('rollback').catch(() => undefined);
        await holder.query(`drop table if exists ${table}`);
        await holder.end();
        await pool.end();
      }
    }, 30_000);

    it('refuses a timeout that is not a whole number of milliseconds >= 0', () => {
      expect(() => openPostgresPool({ connectionString: TEST_POSTGRES_URL, lockTimeoutMs: -1 })).toThrow(
        /lockTimeoutMs must be a whole number of milliseconds >= 0, got -1/,
      );
      expect(() =>
        openPostgresPool({ connectionString: TEST_POSTGRES_URL, statementTimeoutMs: 1.5 }),
      ).toThrow(/statementTimeoutMs/);
    });
  },
);
