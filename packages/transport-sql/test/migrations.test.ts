import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@nimbus/core';
import { SchemaOutOfDateError } from '@nimbus/sql';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlTransport, migrateSqlTransport, TRANSPORT_MIGRATIONS } from '../src/index.js';
import { event, topology } from './fixtures.js';

const names = TRANSPORT_MIGRATIONS.map((m) => m.name);

describe('transport schema migrations on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-transport-migrations-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('VerifyOnly refuses an empty database naming every missing migration, and creates nothing', async () => {
    const path = join(dir, 'empty.db');
    const error = await migrateSqlTransport({ dialect: 'sqlite', path }, { mode: 'VerifyOnly' }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SchemaOutOfDateError);
    expect(error.unapplied).toEqual(names);
    const db = new Database(path);
    expect(db.prepare(`select name from sqlite_master where type = 'table'`).all()).toEqual([]);
    db.close();
  });

  it('AutoApply journals each migration once; a current schema opens without DDL, even while another process holds the write lock', async () => {
    const path = join(dir, 'current.db');
    expect((await migrateSqlTransport({ dialect: 'sqlite', path })).applied).toEqual(names);
    expect((await migrateSqlTransport({ dialect: 'sqlite', path })).applied).toEqual([]);
    const other = new Database(path);
    other.exec('begin immediate'); // what DDL at open would wait for (and fail on, with SQLITE_BUSY)
    try {
      const transport = await createSqlTransport(
        { dialect: 'sqlite', path },
        { busyTimeoutMs: 200, logger: silentLogger, idleSessionSweepMs: 0 },
      );
      await transport.close();
    } finally {
      other.exec('rollback');
      other.close();
    }
    const db = new Database(path);
    const journal = db.prepare(`select name from "nimbus_transport_schema_migrations"`).all();
    db.close();
    expect(journal).toEqual(names.map((name) => ({ name })));
  });

  it('VerifyOnly opens a current schema, and AutoApply adopts tables made before the journal existed', async () => {
    const path = join(dir, 'adopted.db');
    const before = await createSqlTransport(
      { dialect: 'sqlite', path },
      { logger: silentLogger, idleSessionSweepMs: 0 },
    );
    await before.applyTopology(topology);
    await before.publish([{ source: 'Crm', messages: [event('s-1', { kept: true })] }]);
    await before.close();
    const db = new Database(path);
    db.exec(`drop table "nimbus_transport_schema_migrations"`); // as an older release left it
    db.close();
    const error = await migrateSqlTransport({ dialect: 'sqlite', path }, { mode: 'VerifyOnly' }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SchemaOutOfDateError);
    expect((await migrateSqlTransport({ dialect: 'sqlite', path })).applied).toEqual(names);
    const after = await createSqlTransport(
      { dialect: 'sqlite', path },
      { migrationMode: 'VerifyOnly', logger: silentLogger, idleSessionSweepMs: 0 },
    );
    expect((await after.counts('Erp')).active).toBe(1);
    expect(await after.checkReadiness()).toEqual({ ready: true });
    await after.close();
    expect(await after.checkReadiness()).toEqual({ ready: false, reason: 'SQL transport: closed' });
  });
});

describe.runIf(await shouldRunPostgresSuite('transport schema migrations on PostgreSQL'))(
  'transport schema migrations on PostgreSQL',
  () => {
    let database: TemporaryDatabase;
    beforeAll(async () => {
      database = await createTemporaryDatabase('nimbus_transport_migrations');
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('concurrent AutoApply starters apply each migration once; VerifyOnly then passes', async () => {
      const connection = { dialect: 'postgres' as const, connectionString: database.url, schema: 'mig_a' };
      const error = await migrateSqlTransport(connection, { mode: 'VerifyOnly' }).catch((e) => e);
      expect(error).toBeInstanceOf(SchemaOutOfDateError);
      expect(error.message).toContain('transport schema "mig_a"');
      const results = await Promise.all(Array.from({ length: 4 }, () => migrateSqlTransport(connection)));
      expect(results.flatMap((r) => r.applied)).toEqual(names);
      expect((await migrateSqlTransport(connection, { mode: 'VerifyOnly' })).alreadyApplied).toEqual(names);
    });

    it('opening a transport on a current schema runs no DDL: it does not wait for a lock held on its tables', async () => {
      const connection = { dialect: 'postgres' as const, connectionString: database.url, schema: 'mig_b' };
      await migrateSqlTransport(connection);
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      try {
        await locker.query('begin');
        // CREATE INDEX IF NOT EXISTS takes a SHARE lock even when the index exists: this lock blocks it.
        await locker.query(
          `lock table "mig_b"."sessions", "mig_b"."messages", "mig_b"."scheduled" in exclusive mode`,
        );
        const started = Date.now();
        const transport = await createSqlTransport(connection, {
          migrationMode: 'AutoApply',
          logger: silentLogger,
          idleSessionSweepMs: 0,
        });
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await transport.checkReadiness()).toEqual({ ready: true });
        await transport.close();
        const activity = await locker.query(
          `select count(*)::int as waiting from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(activity.rows[0].waiting).toBe(0);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
    });
  },
);
