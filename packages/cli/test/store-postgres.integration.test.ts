import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_MIGRATIONS } from '@nimbus/message-store-sql';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { TRANSPORT_MIGRATIONS } from '@nimbus/transport-sql';
import { webAppMigrationNames } from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, cleanEnv, runCli } from './support/cli-process.js';

const runPg = await shouldRunPostgresSuite('cli store/topology on PostgreSQL');

describe.runIf(runPg)('nimbus store and topology on PostgreSQL (compiled bin)', () => {
  let db: TemporaryDatabase;
  let env: NodeJS.ProcessEnv;
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-cli-pg-'));

  beforeAll(async () => {
    assertCliBuilt();
    db = await createTemporaryDatabase('nimbus_cli');
    // The connection string travels in the environment only, never in argv.
    env = cleanEnv({ NIMBUS_STORE: 'postgres', NIMBUS_TRANSPORT: 'postgres', NIMBUS_POSTGRES_URL: db.url });
  });

  afterAll(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('verify on an unmigrated database exits 3 and lists every missing migration of every schema', async () => {
    const result = await runCli(['store', 'verify', '--data-dir', dataDir, '--reliability', 'postgres'], env);
    expect(result.code).toBe(3);
    for (const migration of ALL_MIGRATIONS) expect(result.stdout).toContain(`missing ${migration.name}`);
    for (const label of ['store', 'transport', 'identity', 'alerts', 'bulk jobs', 'outbox', 'inbox'])
      expect(result.stdout).toMatch(
        new RegExp(`^${label}: \\d+ unapplied migration\\(s\\) at PostgreSQL`, 'm'),
      );
    expect(result.stdout).toContain('nimbus store migrate');
    expect(result.stdout).not.toContain(db.url);

    const json = await runCli(['store', 'verify', '--json'], env);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      upToDate: false,
      missing: ALL_MIGRATIONS.map((m) => m.name),
      schemas: {
        store: ALL_MIGRATIONS.map((m) => m.name),
        transport: TRANSPORT_MIGRATIONS.map((m) => m.name),
        identity: webAppMigrationNames('identity'),
        alerts: webAppMigrationNames('alerts'),
        bulkJobs: webAppMigrationNames('bulkJobs'),
      },
    });
  });

  it('migrate applies them with a progress line per step, after which verify passes and migrate is a no-op', async () => {
    const migrate = await runCli(
      ['store', 'migrate', '--reliability', 'postgres', '--reliability-schema', 'adapter'],
      env,
    );
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain('identity: applied 1 migration(s) at PostgreSQL (NIMBUS_POSTGRES_URL)');
    expect(migrate.stdout).toContain('outbox: applied 1 migration(s) at PostgreSQL (NIMBUS_POSTGRES_URL)');
    const total = ALL_MIGRATIONS.length;
    ALL_MIGRATIONS.forEach((m, i) => {
      expect(migrate.stdout).toContain(`store: applying ${m.name} (${i + 1}/${total})`);
      expect(migrate.stdout).toContain(`store: applied ${m.name} (${i + 1}/${total})`);
    });
    expect(migrate.stdout).not.toContain(db.url);

    const verify = await runCli(
      ['store', 'verify', '--reliability', 'postgres', '--reliability-schema', 'adapter'],
      env,
    );
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('schema is up to date');
    expect(verify.stdout).toContain('inbox: schema is up to date (1 migrations)');

    const again = await runCli(['store', 'migrate', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      applied: [],
      alreadyApplied: ALL_MIGRATIONS.map((m) => m.name),
      transport: { applied: [], alreadyApplied: TRANSPORT_MIGRATIONS.map((m) => m.name) },
      identity: { applied: [], alreadyApplied: webAppMigrationNames('identity') },
      alerts: { applied: [], alreadyApplied: webAppMigrationNames('alerts') },
      bulkJobs: { applied: [], alreadyApplied: webAppMigrationNames('bulkJobs') },
    });
    TRANSPORT_MIGRATIONS.forEach((m, i) => {
      expect(migrate.stdout).toContain(
        `transport: applied ${m.name} (${i + 1}/${TRANSPORT_MIGRATIONS.length})`,
      );
    });
    expect(verify.stdout).toContain('transport: schema is up to date');
  });

  it('topology apply provisions the sample platform once and then reports no changes', async () => {
    const platform = ['--platform', '@nimbus/example-crm-erp'];
    const first = await runCli(['topology', 'apply', ...platform], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ endpoint Erp');
    expect(first.stdout).toContain('+ route Crm --CustomerUpserted--> Erp');
    const second = await runCli(['topology', 'apply', ...platform, '--json'], env);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      addedEndpoints: [],
      removedEndpoints: [],
      addedRoutes: [],
      removedRoutes: [],
    });
  });

  it('a missing connection string is a configuration error (exit 2) naming the variable', async () => {
    const result = await runCli(['store', 'verify'], cleanEnv({ NIMBUS_STORE: 'postgres' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('NIMBUS_POSTGRES_URL');
  });
});
