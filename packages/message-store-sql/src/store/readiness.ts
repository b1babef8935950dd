import { probeReadiness, type Readiness } from '@nimbus/core';
import { describeDriverError } from '@nimbus/sql';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import { runMigrations } from '../migrations/migrator.js';

/**
 * Ready when the database answers (within 2 s) and every migration this code knows is in the journal: one
 * read of the journal does both (VerifyOnly never runs DDL). Never throws.
 */
export function checkStoreReadiness(dialect: SqlDialect, providerName: string): Promise<Readiness> {
  return probeReadiness(`${providerName} store`, () => runMigrations(dialect, { mode: 'VerifyOnly' }), {
    describeError: describeDriverError,
  });
}
