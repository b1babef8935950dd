import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shouldRunPostgresSuite, TEST_POSTGRES_URL } from '@nimbus/testing/postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  classifyDriverError,
  describeDriverError,
  openPostgresPool,
  openSqliteDatabase,
} from '../src/index.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('classifyDriverError', () => {
  it.each([
    ['ECONNREFUSED', 'connection'],
    ['ECONNRESET', 'connection'],
    ['EPIPE', 'connection'],
    ['ETIMEDOUT', 'connection'],
    ['08006', 'connection'],
    ['08001', 'connection'],
    ['57P01', 'unavailable'],
    ['57P02', 'unavailable'],
    ['57P03', 'unavailable'],
    ['53300', 'overloaded'],
    ['40001', 'conflict'],
    ['40P01', 'conflict'],
    ['55P03', 'busy'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_LOCKED', 'busy'],
  ])('%s is retryable (%s)', (code, reason) => {
    expect(classifyDriverError(withCode(code))).toEqual({ isRetryable: true, reason, code });
  });

  it.each(['23505', '42P01', '22P02', '42601', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR'])(
    '%s is permanent',
    (code) => {
      expect(classifyDriverError(withCode(code))).toEqual({ isRetryable: false, reason: 'permanent', code });
    },
  );

  it('55000 is retryable only when the server says it is not accepting connections', () => {
    expect(
      classifyDriverError(withCode('55000', 'the database system is not accepting connections')),
    ).toMatchObject({ isRetryable: true, reason: 'unavailable' });
    // A database with ALLOW_CONNECTIONS false (being dropped, restored or fenced off by an administrator).
    expect(
      classifyDriverError(withCode('55000', 'database "nimbus" is not currently accepting connections')),
    ).toMatchObject({ isRetryable: true, reason: 'unavailable' });
    expect(
      classifyDriverError(withCode('55000', 'cannot execute nextval() in a read-only transaction')),
    ).toMatchObject({ isRetryable: false });
  });

  it('pg messages without a code, causes and aggregate errors', () => {
    expect(classifyDriverError(new Error('Connection terminated unexpectedly'))).toMatchObject({
      isRetryable: true,
      reason: 'connection',
    });
    expect(classifyDriverError(new Error('timeout exceeded when trying to connect')).isRetryable).toBe(true);
    expect(classifyDriverError(new Error('wrapped', { cause: withCode('57P01') }))).toMatchObject({
      isRetryable: true,
      code: '57P01',
    });
    expect(classifyDriverError(new AggregateError([withCode('ECONNREFUSED')], ''))).toMatchObject({
      isRetryable: true,
      reason: 'connection',
    });
    for (const value of [null, undefined, 'text', 42, new Error('boom')]) {
      expect(classifyDriverError(value)).toEqual({ isRetryable: false, reason: 'permanent' });
    }
    expect(describeDriverError(withCode('57P01', 'terminating connection'))).toBe(
      'unavailable (57P01): terminating connection',
    );
  });

  it('real SQLite: a second writer gets SQLITE_BUSY, classified busy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-'));
    try {
      const path = join(dir, 'busy.db');
      const first = openSqliteDatabase(path, { busyTimeoutMs: 0 });
      const second = new Database(path, { timeout: 0 });
      first.exec('create table t (x integer)');
      first.exec('begin immediate');
      let error: unknown;
      try {
        second.exec('begin immediate');
      } catch (e) {
        error = e;
      }
      first.exec('rollback');
      expect(classifyDriverError(error)).toMatchObject({ isRetryable: true, reason: 'busy' });
      expect(first.pragma('journal_mode', { simple: true })).toBe('wal');
      first.close();
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(await shouldRunPostgresSuite('@nimbus/sql driver errors'))('real PostgreSQL errors', () => {
  it('a refused connection is retryable (connection)', async () => {
    const pool = openPostgresPool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', max: 1 });
    const error = await pool.query('select 1').catch((e: unknown) => e);
    await pool.end();
    expect(classifyDriverError(error)).toMatchObject({ isRetryable: true, reason: 'connection' });
  });

  it('a terminated backend (57P01) neither crashes the process nor is permanent', async () => {
    const errors: Error[] = [];
    const pool = openPostgresPool({
      connectionString: TEST_POSTGRES_URL,
      max: 2,
      onConnectionError: (e) => errors.push(e),
    });
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      // A checked-out client between queries has no pool listener: without ours, its 'error' kills Node.
      const held = await pool.connect();
      const pid = (await held.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 50 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(errors.length).toBeGreaterThan(0);
      expect(classifyDriverError(errors[0])).toMatchObject({ isRetryable: true });
      const next = await held.query('select 1').catch((e: unknown) => e);
      expect(classifyDriverError(next).isRetryable).toBe(true);
      held.release(true);
      expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
