import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { MigrationMode, MigrationProgress, MigrationRunResult } from '@nimbus/sql';
import type { OpenedTransportDatabase, TransportDialect } from './dialect/dialect.js';
import { postgresDialect } from './dialect/postgres/index.js';
import { sqliteDialect } from './dialect/sqlite/index.js';
import type { SqlTransportConnection } from './options.js';
import { migrateTransportSchema } from './schema.js';

const DIALECTS: Readonly<Record<SqlTransportConnection['dialect'], TransportDialect<never>>> = {
  sqlite: sqliteDialect,
  postgres: postgresDialect,
};

/**
 * The dialect of `connection`: the one place the transport decides which database it runs on. Everything that
 * differs between them comes from the dialect after this.
 */
export function dialectOf<C extends SqlTransportConnection>(connection: C): TransportDialect<C> {
  const name = String((connection as { dialect?: unknown }).dialect);
  if (!Object.hasOwn(DIALECTS, name)) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `SQL transport: dialect must be 'sqlite' or 'postgres', got '${name}'`,
    );
  }
  return DIALECTS[name as SqlTransportConnection['dialect']] as TransportDialect<C>;
}

/** Validates the connection and opens its database (no statement runs yet). */
export function openTransportDatabase(
  connection: SqlTransportConnection,
  busyTimeoutMs: number,
): OpenedTransportDatabase {
  return dialectOf(connection).database.open(connection, busyTimeoutMs);
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
  const dialect = dialectOf(connection);
  const { db, tables, namespace } = dialect.database.open(connection, 5000);
  try {
    return await migrateTransportSchema(dialect, db, tables, namespace, {
      mode: options.mode ?? 'AutoApply',
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    await db.close();
  }
}
