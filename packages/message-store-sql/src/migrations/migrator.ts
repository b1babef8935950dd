import type { MigrationMode } from '../config/sql-store-settings.js';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { ALL_MIGRATIONS } from './all-migrations.js';
import type { Migration } from './migration.js';
import { SchemaOutOfDateError } from './schema-out-of-date-error.js';

/** Reported once before and once after each migration that is applied. */
export interface MigrationProgress {
  readonly migration: string;
  readonly step: 'applying' | 'applied';
  /** 1-based position among the migrations applied in this run. */
  readonly index: number;
  readonly total: number;
}

export interface MigrationRunOptions {
  readonly mode: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
  readonly migrations?: readonly Migration[];
  readonly now?: () => number;
}

export interface MigrationRunResult {
  /** Migrations applied by this run (empty when the schema was already current, or in VerifyOnly). */
  readonly applied: readonly string[];
  /** Migrations the journal already listed. */
  readonly alreadyApplied: readonly string[];
}

/**
 * Brings the schema up to date (`AutoApply`) or checks it is (`VerifyOnly`, which never runs DDL).
 * AutoApply runs in one transaction under a lock, so concurrent starters apply each migration once.
 */
export async function runMigrations(
  dialect: SqlDialect,
  options: MigrationRunOptions,
): Promise<MigrationRunResult> {
  const migrations = options.migrations ?? ALL_MIGRATIONS;
  if (options.mode === 'VerifyOnly') return verify(dialect, migrations);
  if (options.mode !== 'AutoApply') {
    throw new Error(
      `Invalid store option 'migrationMode': '${String(options.mode)}'. Expected 'AutoApply' or 'VerifyOnly'.`,
    );
  }
  const now = options.now ?? Date.now;
  return dialect.atomic(async (tx) => {
    await dialect.lockMigrations(tx);
    await dialect.ensureSchema(tx);
    await tx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const done = await journal(tx);
    const pending = migrations.filter((m) => !done.has(m.name));
    const applied: string[] = [];
    for (const [i, migration] of pending.entries()) {
      const position = { migration: migration.name, index: i + 1, total: pending.length };
      options.onProgress?.({ ...position, step: 'applying' });
      await migration.up(tx, dialect);
      await tx.insertInto('schema_migrations').values({ name: migration.name, applied_at: now() }).execute();
      applied.push(migration.name);
      options.onProgress?.({ ...position, step: 'applied' });
    }
    return { applied, alreadyApplied: migrations.filter((m) => done.has(m.name)).map((m) => m.name) };
  });
}

async function verify(dialect: SqlDialect, migrations: readonly Migration[]): Promise<MigrationRunResult> {
  const done = (await dialect.tableExists('schema_migrations'))
    ? await journal(dialect.db)
    : new Set<string>();
  const unapplied = migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
  if (unapplied.length > 0) throw new SchemaOutOfDateError(dialect.placement, unapplied);
  return { applied: [], alreadyApplied: migrations.map((m) => m.name) };
}

async function journal(db: StoreDb): Promise<Set<string>> {
  const rows = await db.selectFrom('schema_migrations').select('name').execute();
  return new Set(rows.map((r) => r.name));
}
