import type { MigrationRunResult } from '@nimbus/sql';
import { ALERT_SCHEMA } from '../alerts/sql-alert-migrations.js';
import { IDENTITY_SCHEMA } from '../identity/sql-identity-migrations.js';
import { BULK_JOB_SCHEMA } from '../operator/sql-bulk-job-tables.js';
import { openWebAppDatabase, type WebAppDatabaseOptions } from './open-webapp-database.js';
import { migrateWebAppSchema, type WebAppMigrationOptions, type WebAppSchema } from './webapp-migrations.js';

/** The WebApp's own sets of tables, each with its journal: users and sessions, alert state, bulk jobs. */
export const WEBAPP_TABLE_SETS = {
  identity: IDENTITY_SCHEMA,
  alerts: ALERT_SCHEMA,
  bulkJobs: BULK_JOB_SCHEMA,
} as const satisfies Record<string, WebAppSchema>;

export type WebAppTableSet = keyof typeof WEBAPP_TABLE_SETS;

/** Migration names of one set, in order (what `VerifyOnly` compares the journal with). */
export function webAppMigrationNames(set: WebAppTableSet): readonly string[] {
  return WEBAPP_TABLE_SETS[set].migrations.map((m) => m.name);
}

/**
 * Applies (`AutoApply`) or verifies (`VerifyOnly`, which throws `SchemaOutOfDateError` naming what is missing)
 * one set of WebApp tables without opening its store: what `nimbus store migrate|verify` runs.
 */
export async function migrateWebAppTables(
  set: WebAppTableSet,
  database: WebAppDatabaseOptions,
  options: WebAppMigrationOptions,
): Promise<MigrationRunResult> {
  const opened = openWebAppDatabase(database, WEBAPP_TABLE_SETS[set].what, {
    max: 2,
    applicationName: 'nimbus-migrate',
  });
  try {
    return await migrateWebAppSchema(WEBAPP_TABLE_SETS[set], opened, database.dialect, options);
  } finally {
    await opened.root.destroy();
  }
}
