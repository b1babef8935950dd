import type { Logger } from '@nimbus/core';
import { InProcessStateChangeNotifier } from '@nimbus/message-store';
import { createSqlStateChangeNotifier, type SqlStateChangeNotifier } from '@nimbus/message-store-sql';
import type { SubscribableNotifier } from '@nimbus/webapp';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode } from '../exit-codes.js';

export interface OpenNotifier {
  readonly notifier: SubscribableNotifier;
  /** The cross-process notifier when the store is SQL (null for the in-memory and Cosmos stores). */
  readonly sql: SqlStateChangeNotifier | null;
  close(): Promise<void>;
}

/**
 * The state-change notifier every process on the same store shares: PostgreSQL LISTEN/NOTIFY, or the
 * SQLite change log beside the store file. Only the memory store keeps notifications in-process.
 */
export async function openNotifier(config: NimbusConfig, logger: Logger): Promise<OpenNotifier> {
  // Cosmos DB: in-process only (its change feed is not used; see docs/storage-cosmos.md).
  if (config.store === 'memory' || config.store === 'cosmos') {
    return { notifier: new InProcessStateChangeNotifier({ logger }), sql: null, close: async () => {} };
  }
  try {
    const sql = await createSqlStateChangeNotifier(
      config.store === 'postgres'
        ? { dialect: 'postgres', connectionString: config.postgresUrl ?? '', logger }
        : { dialect: 'sqlite', filename: config.storeSqlitePath, logger },
    );
    return { notifier: sql, sql, close: () => sql.stop() };
  } catch (error) {
    throw new CliError(
      `Could not open the ${config.store} state-change notifier: ${(error as Error).message}`,
      ExitCode.Failed,
      { cause: error },
    );
  }
}
