import { SchemaOutOfDateError } from '@nimbus/sql';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/config/resolve-connection-settings.js';
import { openDialect } from '../src/dialect/open-dialect.js';
import type { SqlDialect } from '../src/dialect/sql-dialect.js';
import { ALL_MIGRATIONS } from '../src/migrations/all-migrations.js';
import { runMigrations } from '../src/migrations/migrator.js';

const runPg = await shouldRunPostgresSuite('message-store-sql migrations (PostgreSQL)');

describe.runIf(runPg)('migrations on PostgreSQL', () => {
  let database: TemporaryDatabase;
  const opened: SqlDialect[] = [];
  const open = (schema: string) => {
    const dialect = openDialect(
      resolveConnectionSettings({ dialect: 'postgres', connectionString: database.url, schema, env: {} }),
    );
    opened.push(dialect);
    return dialect;
  };

  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_store_migrations');
  });
  afterAll(async () => {
    for (const dialect of opened) await dialect.destroy();
    await database?.drop();
  });

  it('VerifyOnly against an empty database fails naming every unapplied migration and creates nothing', async () => {
    const dialect = open('verify_empty');
    const error = (await runMigrations(dialect, { mode: 'VerifyOnly' }).catch(
      (e: unknown) => e,
    )) as SchemaOutOfDateError;
    expect(error).toBeInstanceOf(SchemaOutOfDateError);
    expect(error.unapplied).toEqual(ALL_MIGRATIONS.map((m) => m.name));
    for (const m of ALL_MIGRATIONS) expect(error.message).toContain(m.name);
    expect(error.message).toContain('schema "verify_empty"');
    expect(await dialect.tableExists('schema_migrations')).toBe(false);
  });

  it('AutoApply creates the schema, and a second run (even concurrent starters) applies nothing', async () => {
    const dialect = open('auto_twice');
    const racer = open('auto_twice');
    const [first, concurrent] = await Promise.all([
      runMigrations(dialect, { mode: 'AutoApply' }),
      runMigrations(racer, { mode: 'AutoApply' }),
    ]);
    expect([...first.applied, ...concurrent.applied].sort()).toEqual(
      ALL_MIGRATIONS.map((m) => m.name).sort(),
    );
    const second = await runMigrations(dialect, { mode: 'AutoApply' });
    expect(second.applied).toEqual([]);
    const journal = await dialect.db.selectFrom('schema_migrations').select('name').execute();
    expect(journal).toHaveLength(ALL_MIGRATIONS.length);
    await expect(runMigrations(dialect, { mode: 'VerifyOnly' })).resolves.toMatchObject({ applied: [] });
    expect(await dialect.tableExists('unresolved_events')).toBe(true);
  });
});
