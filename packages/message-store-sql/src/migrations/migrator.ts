import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { type MigrationJournal, runMigrations as runSharedMigrations } from '@nimbus/sql';
import type { MigrationMode } from '../config/sql-store-settings.js';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { ALL_MIGRATIONS } from './all-migrations.js';
import type { Migration } from './migration.js';

/** Reported once before and once after each migration that is applied. */
export type { MigrationProgress, MigrationRunResult } from '@nimbus/sql';

import type { MigrationProgress, MigrationRunResult } from '@nimbus/sql';

export interface MigrationRunOptions {
  readonly mode: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
  readonly migrations?: readonly Migration[];
  readonly now?: () => number;
}

/**
 * Brings the schema up to date (`AutoApply`) or checks it is (`VerifyOnly`, which never runs DDL), on the one
 * migration runner of `@nimbus/sql`: a current schema costs one read of the journal and no DDL or lock in
 * either mode; AutoApply applies what is pending in one transaction under the migration lock, so concurrent
 * starters apply each migration once.
 */
export function runMigrations(
  dialect: SqlDialect,
  options: MigrationRunOptions,
): Promise<MigrationRunResult> {
  const migrations = options.migrations ?? ALL_MIGRATIONS;
  if (options.mode !== 'AutoApply' && options.mode !== 'VerifyOnly') {
    return Promise.reject(
      new NimBusError(
        NimBusErrorCode.InvalidOption,
        `Invalid store option 'migrationMode': '${String(options.mode)}'. Expected 'AutoApply' or 'VerifyOnly'.`,
      ),
    );
  }
  return runSharedMigrations(storeJournal(dialect), {
    mode: options.mode,
    migrations: migrations.map((migration) => ({
      name: migration.name,
      up: (tx: StoreDb) => migration.up(tx, dialect),
    })),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** The store's journal table `schema_migrations` (mapped into its schema or prefix like every store table). */
function storeJournal(dialect: SqlDialect): MigrationJournal<StoreDb> {
  return {
    placement: dialect.placement,
    async readApplied(tx) {
      if (!tx && !(await dialect.tableExists('schema_migrations'))) return null;
      const rows = await (tx ?? dialect.db).selectFrom('schema_migrations').select('name').execute();
      return new Set(rows.map((r) => r.name));
    },
    locked: (work) =>
      dialect.atomic(async (tx) => {
        await dialect.lockMigrations(tx);
        return work(tx);
      }),
    async createJournal(tx) {
      await dialect.ensureSchema(tx);
      await tx.schema
        .createTable('schema_migrations')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async record(tx, name, appliedAt) {
      await tx.insertInto('schema_migrations').values({ name, applied_at: appliedAt }).execute();
    },
  };
}
