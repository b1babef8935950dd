import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaOutOfDateError } from '@nimbus/sql';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/config/resolve-connection-settings.js';
import { openDialect } from '../src/dialect/open-dialect.js';
import { ALL_MIGRATIONS } from '../src/migrations/all-migrations.js';
import { type MigrationProgress, runMigrations } from '../src/migrations/migrator.js';

const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sqlite(name: string) {
  return openDialect(resolveConnectionSettings({ dialect: 'sqlite', filename: join(dir, name), env: {} }));
}

describe('migrations on SQLite', () => {
  it('VerifyOnly against an empty database fails naming every unapplied migration', async () => {
    const dialect = sqlite('empty.db');
    try {
      const error = await runMigrations(dialect, { mode: 'VerifyOnly' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SchemaOutOfDateError);
      const names = ALL_MIGRATIONS.map((m) => m.name);
      expect(names.length).toBeGreaterThan(1);
      expect((error as SchemaOutOfDateError).unapplied).toEqual(names);
      for (const name of names) expect((error as Error).message).toContain(name);
      expect(await dialect.tableExists('schema_migrations')).toBe(false);
    } finally {
      await dialect.destroy();
    }
  });

  it('AutoApply applies every migration once, reports progress, and a second run is a no-op', async () => {
    const dialect = sqlite('auto.db');
    try {
      const progress: MigrationProgress[] = [];
      const first = await runMigrations(dialect, { mode: 'AutoApply', onProgress: (p) => progress.push(p) });
      expect(first.applied).toEqual(ALL_MIGRATIONS.map((m) => m.name));
      expect(progress.map((p) => `${p.step}:${p.migration}:${p.index}/${p.total}`)).toEqual(
        ALL_MIGRATIONS.flatMap((m, i) => [
          `applying:${m.name}:${i + 1}/${ALL_MIGRATIONS.length}`,
          `applied:${m.name}:${i + 1}/${ALL_MIGRATIONS.length}`,
        ]),
      );
      const again: MigrationProgress[] = [];
      const second = await runMigrations(dialect, { mode: 'AutoApply', onProgress: (p) => again.push(p) });
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toEqual(ALL_MIGRATIONS.map((m) => m.name));
      expect(again).toEqual([]);
      const journal = await dialect.db.selectFrom('schema_migrations').select('name').execute();
      expect(journal).toHaveLength(ALL_MIGRATIONS.length);
      await expect(runMigrations(dialect, { mode: 'VerifyOnly' })).resolves.toMatchObject({ applied: [] });
      expect(await dialect.tableExists('unresolved_events')).toBe(true);
    } finally {
      await dialect.destroy();
    }
  });

  it('VerifyOnly names only the migrations still missing after a partial apply', async () => {
    const dialect = sqlite('partial.db');
    try {
      await runMigrations(dialect, { mode: 'AutoApply', migrations: ALL_MIGRATIONS.slice(0, 1) });
      const error = (await runMigrations(dialect, { mode: 'VerifyOnly' }).catch(
        (e: unknown) => e,
      )) as SchemaOutOfDateError;
      expect(error.unapplied).toEqual(ALL_MIGRATIONS.slice(1).map((m) => m.name));
    } finally {
      await dialect.destroy();
    }
  });

  it('uses the schema as a table prefix, so two schemas share one file without colliding', async () => {
    const a = openDialect(
      resolveConnectionSettings({
        dialect: 'sqlite',
        filename: join(dir, 'two.db'),
        schema: 'alpha',
        env: {},
      }),
    );
    const b = openDialect(
      resolveConnectionSettings({
        dialect: 'sqlite',
        filename: join(dir, 'two.db'),
        schema: 'beta',
        env: {},
      }),
    );
    try {
      await runMigrations(a, { mode: 'AutoApply' });
      await expect(runMigrations(b, { mode: 'VerifyOnly' })).rejects.toBeInstanceOf(SchemaOutOfDateError);
      await runMigrations(b, { mode: 'AutoApply' });
      expect(await a.tableExists('messages')).toBe(true);
      expect(await b.tableExists('messages')).toBe(true);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });
});
