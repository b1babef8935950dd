import type { MigrationMode, MigrationProgress, MigrationRunResult } from '@nimbus/sql';
import type { SqlTransportConnection } from './options.js';
import { migrateTransportSchema } from './schema.js';
import type { SqlDatabase } from './sql/database.js';
import { openPostgresDatabase } from './sql/postgres-database.js';
import { openSqliteDatabase } from './sql/sqlite-database.js';
import { type Tables, tableNames } from './tables.js';

export interface OpenedTransportDatabase {
  readonly db: SqlDatabase;
  readonly tables: Tables;
  /** The PostgreSQL schema or the SQLite table prefix. */
  readonly namespace: string;
}

/** Validates the connection and opens its database (no statement runs yet). */
export function openTransportDatabase(
  connection: SqlTransportConnection,
  busyTimeoutMs: number,
): OpenedTransportDatabase {
  if (connection.dialect === 'sqlite') {
    if (typeof connection.path !== 'string' || connection.path.length === 0) {
      throw new RangeError('SQL transport: sqlite connection needs a non-empty path');
    }
    const namespace = connection.tablePrefix ?? 'nimbus_transport_';
    const tables = tableNames('sqlite', namespace);
    return { db: openSqliteDatabase(connection.path, busyTimeoutMs), tables, namespace };
  }
  if (connection.dialect === 'postgres') {
    if (typeof connection.connectionString !== 'string' || connection.connectionString.length === 0) {
      throw new RangeError('SQL transport: postgres connection needs a non-empty connectionString');
    }
    const namespace = connection.schema ?? 'nimbus_transport';
    const tables = tableNames('postgres', namespace);
    return {
      db: openPostgresDatabase(connection.connectionString, connection.poolSize ?? 10),
      tables,
      namespace,
    };
  }
  throw new RangeError(
    `SQL transport: dialect must be 'sqlite' or 'postgres', got '${String((connection as { dialect?: unknown }).dialect)}'`,
  );
}

export interface MigrateSqlTransportOptions {
  /** Default `AutoApply`. */
  readonly mode?: MigrationMode;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/**
 * Applies or verifies the transport schema without opening a transport (what `nimbus store migrate|verify` runs
 * for the transport); `VerifyOnly` throws `SchemaOutOfDateError` listing what is missing.
 */
export async function migrateSqlTransport(
  connection: SqlTransportConnection,
  options: MigrateSqlTransportOptions = {},
): Promise<MigrationRunResult> {
  const { db, tables, namespace } = openTransportDatabase(connection, 5000);
  try {
    return await migrateTransportSchema(db, tables, namespace, {
      mode: options.mode ?? 'AutoApply',
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    await db.close();
  }
}
