import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_MIGRATIONS } from '@nimbus/message-store-sql';
import { openSqliteDatabase } from '@nimbus/sql';
import { TRANSPORT_MIGRATIONS } from '@nimbus/transport-sql';
import { webAppMigrationNames } from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, cleanEnv, runCli } from './support/cli-process.js';

const names = (list: readonly { name: string }[]) => list.map((m) => m.name);

describe('nimbus store migrate|verify on SQLite: every schema of the product (compiled bin)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-cli-store-'));
  const adapterDb = join(dataDir, 'adapter.db');
  const env = cleanEnv();
  const args = ['--data-dir', dataDir, '--reliability', adapterDb];

  beforeAll(() => assertCliBuilt());
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('verify on fresh files exits 3 and names every missing migration of every schema', async () => {
    const result = await runCli(['store', 'verify', ...args], env);
    expect(result.code).toBe(3);
    for (const label of ['store', 'transport', 'identity', 'alerts', 'bulk jobs', 'outbox', 'inbox'])
      expect(result.stdout).toMatch(new RegExp(`^${label}: \\d+ unapplied migration\\(s\\) at SQLite `, 'm'));
    expect(result.stdout).toContain(`SQLite ${join(dataDir, 'identity.db')}`);
    expect(result.stdout).toContain('missing 0001_baseline');
    expect(result.stdout).toContain('Run `nimbus store migrate`');

    const json = await runCli(['store', 'verify', '--json', ...args], env);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      upToDate: false,
      missing: names(ALL_MIGRATIONS),
      schemas: {
        store: names(ALL_MIGRATIONS),
        transport: names(TRANSPORT_MIGRATIONS),
        identity: webAppMigrationNames('identity'),
        alerts: webAppMigrationNames('alerts'),
        bulkJobs: webAppMigrationNames('bulkJobs'),
        outbox: ['0001_baseline'],
        inbox: ['0001_baseline'],
      },
    });
  });

  it('migrate baselines an identity file the create-if-missing WebApp made, applies the rest, and verify then exits 0', async () => {
    const old = openSqliteDatabase(join(dataDir, 'identity.db'));
    old.exec(`create table nimbus_identity_users (id varchar(64) primary key, email varchar(320) not null unique,
      display_name varchar(200), password_hash varchar(512) not null, site_role varchar(20) not null,
      failed_logins integer not null default 0, locked_until varchar(40), created_at varchar(40) not null,
      updated_at varchar(40) not null)`);
    old.exec(
      `insert into nimbus_identity_users values ('u1', 'old@example.test', null, 'h', 'Owner', 0, null, 'a', 'b')`,
    );
    old.close();

    const migrate = await runCli(['store', 'migrate', ...args], env);
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain('identity: applying 0001_baseline (1/1)');
    expect(migrate.stdout).toContain('identity: applied 1 migration(s) at SQLite');
    expect(migrate.stdout).toContain('outbox: applied 1 migration(s) at SQLite');
    expect(migrate.stdout).toContain('inbox: applied 1 migration(s) at SQLite');

    const identity = openSqliteDatabase(join(dataDir, 'identity.db'));
    const columns = (
      identity.prepare('select name from pragma_table_info(?)').all('nimbus_identity_users') as {
        name: string;
      }[]
    ).map((c) => c.name);
    expect(identity.prepare('select email from nimbus_identity_users').all()).toEqual([
      { email: 'old@example.test' },
    ]);
    identity.close();
    expect(columns).toContain('must_change_password');

    const verify = await runCli(['store', 'verify', ...args], env);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('bulk jobs: schema is up to date (1 migrations)');

    const again = await runCli(['store', 'migrate', '--json', ...args], env);
    expect(again.code).toBe(0);
    const result = JSON.parse(again.stdout) as Record<string, { applied: string[] }>;
    expect(Object.keys(result)).toEqual([
      'applied',
      'alreadyApplied',
      'transport',
      'identity',
      'alerts',
      'bulkJobs',
      'outbox',
      'inbox',
    ]);
    for (const key of ['transport', 'identity', 'alerts', 'bulkJobs', 'outbox', 'inbox'])
      expect(result[key]?.applied).toEqual([]);
  });

  it('a reliability option without --reliability, or a bad table name, is a usage error (exit 2)', async () => {
    const lonely = await runCli(['store', 'verify', '--data-dir', dataDir, '--outbox-table', 'x'], env);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toContain('--reliability');
    const bad = await runCli(['store', 'migrate', ...args, '--outbox-table', 'no-dashes'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option 'tableName' 'no-dashes' must be a plain SQL identifier");
  });
});
