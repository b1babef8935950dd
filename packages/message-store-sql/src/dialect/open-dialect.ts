import type { SqlConnectionSettings } from '../config/sql-store-settings.js';
import { createPostgresDialect } from './postgres-dialect.js';
import type { SqlDialect } from './sql-dialect.js';
import { createSqliteDialect } from './sqlite-dialect.js';

/** Opens the dialect the settings name. SQLite has no schemas, so the schema becomes a `<schema>_` table prefix. */
export function openDialect(settings: SqlConnectionSettings): SqlDialect {
  return settings.dialect === 'sqlite'
    ? createSqliteDialect({
        filename: settings.filename,
        prefix: `${settings.schema}_`,
        busyTimeoutMs: settings.busyTimeoutMs,
      })
    : createPostgresDialect({
        connectionString: settings.connectionString,
        schema: settings.schema,
        poolSize: settings.poolSize,
        statementTimeoutMs: settings.statementTimeoutMs,
        lockTimeoutMs: settings.lockTimeoutMs,
      });
}
