import {
  type MigrationMode,
  type MigrationProgress,
  type MigrationRunResult,
  type NamedMigration,
  runMigrations,
} from '@nimbus/sql';
import type { TransportDialect } from './dialect/dialect.js';
import { TRANSPORT_MIGRATIONS } from './migrations/all-migrations.js';
import { transportJournal } from './migrations/transport-journal.js';
import type { SqlDatabase, SqlExecutor } from './sql/database.js';
import type { Tables } from './tables.js';

export interface TransportMigrationOptions {
  readonly mode: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/**
 * Brings the transport schema up to date (`AutoApply`) or checks it is (`VerifyOnly`). On a current schema both
 * read the journal and run no DDL: DDL takes table locks that deadlocked live traffic when every process ran it.
 */
export function migrateTransportSchema(
  dialect: TransportDialect,
  db: SqlDatabase,
  t: Tables,
  namespace: string,
  options: TransportMigrationOptions,
): Promise<MigrationRunResult> {
  const migrations: NamedMigration<SqlExecutor>[] = TRANSPORT_MIGRATIONS.map((migration) => ({
    name: migration.name,
    async up(tx) {
      for (const statement of migration.statements({ types: dialect.schema.columnTypes, t }))
        await tx.run(statement);
    },
  }));
  return runMigrations(transportJournal(dialect.schema, db, t, namespace), {
    mode: options.mode,
    migrations,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
