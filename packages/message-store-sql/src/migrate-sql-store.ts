import { type ConnectionOptions, resolveConnectionSettings } from './config/resolve-connection-settings.js';
import type { MigrationMode } from './config/sql-store-settings.js';
import { openDialect } from './dialect/open-dialect.js';
import { type MigrationProgress, type MigrationRunResult, runMigrations } from './migrations/migrator.js';

export interface MigrateSqlStoreOptions extends ConnectionOptions {
  /** `AutoApply` (default) applies what is pending; `VerifyOnly` only checks and throws `SchemaOutOfDateError`. */
  readonly mode?: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/** Applies or verifies the store schema without opening the store (what `nimbus store migrate` runs). */
export async function migrateSqlMessageStore(
  options: MigrateSqlStoreOptions = {},
): Promise<MigrationRunResult> {
  const dialect = openDialect(resolveConnectionSettings(options));
  try {
    return await runMigrations(dialect, {
      mode: options.mode ?? 'AutoApply',
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    await dialect.destroy();
  }
}
