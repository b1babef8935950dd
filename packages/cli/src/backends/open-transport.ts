import type { Logger, Transport } from '@nimbus/core';
import type { MessageStateChangeNotifier } from '@nimbus/message-store';
import { createSqlColocatedProjection, migrateSqlMessageStore } from '@nimbus/message-store-sql';
import { isSchemaOutOfDate, type MigrationMode, type MigrationProgress } from '@nimbus/sql';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createSqlTransport, type SqlTransportOptions } from '@nimbus/transport-sql';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { ensureDataDir } from './data-dir.js';
import { openServiceBusTransport, type ServiceBusConnection } from './open-servicebus-transport.js';

export interface OpenTransportOptions {
  /** Default `AutoApply` (a current schema costs one read either way; only a stale one differs). */
  readonly migrationMode?: MigrationMode;
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
  /** The process' logger, for what the SQL transport survives (a dropped LISTEN connection); default console. */
  readonly logger?: Logger;
  /** For `--transport servicebus`: whether to start the emulator without a namespace (`nimbus dev`), and where to say so. */
  readonly serviceBus?: Omit<ServiceBusConnection, 'connectionString'>;
  /** Co-located tracking: told after each transaction that changed store rows (the store's notifier). */
  readonly notifier?: MessageStateChangeNotifier;
  /**
   * The session lease (`--lease-ms`) of the SQL and memory transports; default: the transport's own (30 000 ms).
   * Service Bus takes it from its subscriptions' lock duration.
   */
  readonly lockDurationMs?: number;
  /** Bounded statement and lock waits (the long-running services); absent: the driver's defaults. */
  readonly timeouts?: DatabaseTimeouts;
}

/**
 * Co-located tracking: the store's schema is applied (or verified) first, since the transport writes its rows,
 * then the projection for the transport's transactions.
 */
async function colocatedProjection(
  config: NimbusConfig,
  options: OpenTransportOptions,
): Promise<Pick<SqlTransportOptions, 'projection'>> {
  if (config.tracking !== 'colocated') return {};
  const store = {
    dialect: config.store === 'postgres' ? ('postgres' as const) : ('sqlite' as const),
    ...(config.store === 'postgres'
      ? { connectionString: config.postgresUrl ?? '' }
      : { filename: config.storeSqlitePath }),
  };
  await migrateSqlMessageStore({ ...store, mode: options.migrationMode ?? 'AutoApply' });
  return {
    projection: createSqlColocatedProjection({
      ...store,
      ...(options.notifier ? { notifier: options.notifier } : {}),
    }),
  };
}

/**
 * Opens the configured transport: a SQLite file shared by every process on this machine, PostgreSQL, memory,
 * or Azure Service Bus (see open-servicebus-transport.ts).
 */
export async function openTransport(
  config: NimbusConfig,
  options: OpenTransportOptions = {},
): Promise<Transport> {
  const lease = options.lockDurationMs === undefined ? {} : { lockDurationMs: options.lockDurationMs };
  const timeouts = options.timeouts;
  const sqlOptions: SqlTransportOptions = {
    ...lease,
    migrationMode: options.migrationMode ?? 'AutoApply',
    ...(timeouts && timeouts.lockTimeoutMs > 0 ? { busyTimeoutMs: timeouts.lockTimeoutMs } : {}),
    ...(options.onMigrationProgress ? { onMigrationProgress: options.onMigrationProgress } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  try {
    if (config.transport === 'memory') return createMemoryTransport(lease);
    if (config.transport === 'servicebus') {
      return await openServiceBusTransport({
        ...options.serviceBus,
        connectionString: config.servicebusConnectionString,
      });
    }
    if (config.transport === 'sqlite') ensureDataDir(config.dataDir);
    const withProjection = { ...sqlOptions, ...(await colocatedProjection(config, options)) };
    if (config.transport === 'sqlite') {
      return await createSqlTransport(
        { dialect: 'sqlite', path: config.transportSqlitePath },
        withProjection,
      );
    }
    return await createSqlTransport(
      {
        dialect: 'postgres',
        connectionString: config.postgresUrl ?? '',
        ...(timeouts
          ? { statementTimeoutMs: timeouts.statementTimeoutMs, lockTimeoutMs: timeouts.lockTimeoutMs }
          : {}),
      },
      withProjection,
    );
  } catch (error) {
    if (isSchemaOutOfDate(error)) throw new CliError(error.message, ExitCode.SchemaOutOfDate);
    if (error instanceof CliError) throw error;
    throw new CliError(
      `Could not open the ${config.transport} transport: ${(error as Error).message}`,
      ExitCode.Failed,
      { cause: error },
    );
  }
}
