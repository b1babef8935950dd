import { mkdirSync } from 'node:fs';
import type { Transport } from '@nimbus/core';
import { type MigrationMode, type MigrationProgress, SchemaOutOfDateError } from '@nimbus/sql';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createSqlTransport, type SqlTransportOptions } from '@nimbus/transport-sql';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode } from '../exit-codes.js';

export interface OpenTransportOptions {
  /** Default `AutoApply` (a current schema costs one read either way; only a stale one differs). */
  readonly migrationMode?: MigrationMode;
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
}

/** Opens the configured transport: a SQLite file shared by every process on this machine, PostgreSQL, or memory. */
export async function openTransport(
  config: NimbusConfig,
  options: OpenTransportOptions = {},
): Promise<Transport> {
  const sqlOptions: SqlTransportOptions = {
    migrationMode: options.migrationMode ?? 'AutoApply',
    ...(options.onMigrationProgress ? { onMigrationProgress: options.onMigrationProgress } : {}),
  };
  try {
    if (config.transport === 'memory') return createMemoryTransport();
    if (config.transport === 'sqlite') {
      mkdirSync(config.dataDir, { recursive: true });
      return await createSqlTransport({ dialect: 'sqlite', path: config.transportSqlitePath }, sqlOptions);
    }
    return await createSqlTransport(
      { dialect: 'postgres', connectionString: config.postgresUrl ?? '' },
      sqlOptions,
    );
  } catch (error) {
    if (error instanceof SchemaOutOfDateError) throw new CliError(error.message, ExitCode.SchemaOutOfDate);
    throw new CliError(`Could not open the ${config.transport} transport: ${(error as Error).message}`);
  }
}
