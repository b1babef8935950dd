import { mkdirSync } from 'node:fs';
import type { Logger, Transport } from '@nimbus/core';
import { type MigrationMode, type MigrationProgress, SchemaOutOfDateError } from '@nimbus/sql';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createSqlTransport, type SqlTransportOptions } from '@nimbus/transport-sql';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { openServiceBusTransport, type ServiceBusConnection } from './open-servicebus-transport.js';

export interface OpenTransportOptions {
  /** Default `AutoApply` (a current schema costs one read either way; only a stale one differs). */
  readonly migrationMode?: MigrationMode;
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
  /** The process' logger, for what the SQL transport survives (a dropped LISTEN connection); default console. */
  readonly logger?: Logger;
  /** For `--transport servicebus`: whether to start the emulator without a namespace (`nimbus dev`), and where to say so. */
  readonly serviceBus?: Omit<ServiceBusConnection, 'connectionString'>;
}

/**
 * Opens the configured transport: a SQLite file shared by every process on this machine, PostgreSQL, memory,
 * or Azure Service Bus (see open-servicebus-transport.ts).
 */
export async function openTransport(
  config: NimbusConfig,
  options: OpenTransportOptions = {},
): Promise<Transport> {
  const sqlOptions: SqlTransportOptions = {
    migrationMode: options.migrationMode ?? 'AutoApply',
    ...(options.onMigrationProgress ? { onMigrationProgress: options.onMigrationProgress } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  try {
    if (config.transport === 'memory') return createMemoryTransport();
    if (config.transport === 'servicebus') {
      return await openServiceBusTransport({
        ...options.serviceBus,
        connectionString: config.servicebusConnectionString,
      });
    }
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
    if (error instanceof CliError) throw error;
    throw new CliError(`Could not open the ${config.transport} transport: ${(error as Error).message}`);
  }
}
