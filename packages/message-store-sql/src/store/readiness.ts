import type { Readiness } from '@nimbus/core';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { runMigrations } from '../migrations/migrator.js';

/**
 * Ready when the database answers and every migration this code knows is in the journal: one read of the
 * journal does both (VerifyOnly never runs DDL). Never throws.
 */
export async function checkStoreReadiness(dialect: SqlDialect, providerName: string): Promise<Readiness> {
  try {
    await runMigrations(dialect, { mode: 'VerifyOnly' });
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: `${providerName} store: ${(error as Error).message}` };
  }
}
