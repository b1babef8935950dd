import { migrateSqlMessageStore } from '@nimbus/message-store-sql';
import {
  createPostgresInboxStore,
  createPostgresOutboxStore,
  createSqliteInboxStore,
  createSqliteOutboxStore,
} from '@nimbus/reliability';
import {
  type MigrationMode,
  type MigrationProgress,
  type MigrationRunResult,
  openPostgresPool,
  openSqliteDatabase,
} from '@nimbus/sql';
import { migrateSqlTransport } from '@nimbus/transport-sql';
import { migrateWebAppTables, type WebAppTableSet } from '@nimbus/webapp';
import { ensureDataDir } from '../backends/data-dir.js';
import { describeWebAppDatabase, webAppDatabase } from '../backends/webapp-database.js';
import type { NimbusConfig } from '../config.js';
import { usageError } from '../exit-codes.js';

/** One schema `nimbus store migrate|verify` looks after: where it is and how to run its migrations. */
export interface SchemaPart {
  /** The key in `--json` output. */
  readonly key: string;
  /** The prefix of its lines: `store`, `transport`, `identity`, … */
  readonly label: string;
  /** Where it is, for messages (never a connection string). */
  readonly where: string;
  /** Printed instead of the summary line (a schema that has no migrations). */
  readonly note?: string;
  run(mode: MigrationMode, onProgress: (progress: MigrationProgress) => void): Promise<MigrationRunResult>;
}

/** The outbox and inbox tables of an adapter's database (`--reliability`). */
export interface ReliabilityTarget {
  /** A SQLite file, or `postgres` for NIMBUS_POSTGRES_URL. */
  readonly database: string;
  readonly outboxTable?: string;
  readonly inboxTable?: string;
  readonly schema?: string;
}

const NOTHING: MigrationRunResult = { applied: [], alreadyApplied: [] };

function storePart(config: NimbusConfig): SchemaPart | null {
  if (config.store === 'memory') return null;
  if (config.store === 'cosmos')
    return {
      key: 'store',
      label: 'store',
      where: 'Cosmos DB (NIMBUS_COSMOS_*)',
      note: 'store: Cosmos DB creates its database and containers when it opens; no migrations',
      run: async () => NOTHING,
    };
  return {
    key: 'store',
    label: 'store',
    where:
      config.store === 'sqlite' ? `SQLite ${config.storeSqlitePath}` : 'PostgreSQL (NIMBUS_POSTGRES_URL)',
    run: (mode, onProgress) => {
      if (config.store === 'sqlite') ensureDataDir(config.dataDir);
      return migrateSqlMessageStore({
        dialect: config.store as 'sqlite' | 'postgres',
        ...(config.store === 'sqlite'
          ? { filename: config.storeSqlitePath }
          : { connectionString: config.postgresUrl ?? '' }),
        mode,
        onProgress,
      });
    },
  };
}

function transportPart(config: NimbusConfig): SchemaPart | null {
  if (config.transport !== 'sqlite' && config.transport !== 'postgres') return null;
  const sqlite = config.transport === 'sqlite';
  return {
    key: 'transport',
    label: 'transport',
    where: sqlite ? `SQLite ${config.transportSqlitePath}` : 'PostgreSQL (NIMBUS_POSTGRES_URL)',
    run: (mode, onProgress) => {
      if (sqlite) ensureDataDir(config.dataDir);
      return migrateSqlTransport(
        sqlite
          ? { dialect: 'sqlite', path: config.transportSqlitePath }
          : { dialect: 'postgres', connectionString: config.postgresUrl ?? '' },
        { mode, onProgress },
      );
    },
  };
}

const WEBAPP_PARTS: readonly (readonly [WebAppTableSet, string])[] = [
  ['identity', 'identity'],
  ['alerts', 'alerts'],
  ['bulkJobs', 'bulk jobs'],
];

function webAppParts(config: NimbusConfig): SchemaPart[] {
  if (config.store === 'memory') return [];
  return WEBAPP_PARTS.map(([set, label]) => ({
    key: set,
    label,
    where: describeWebAppDatabase(config, set),
    run: (mode, onProgress) => migrateWebAppTables(set, webAppDatabase(config, set)!, { mode, onProgress }),
  }));
}

function reliabilityParts(config: NimbusConfig, target: ReliabilityTarget): SchemaPart[] {
  const postgres = target.database === 'postgres';
  if (postgres && !config.postgresUrl)
    throw usageError('--reliability postgres needs the connection string in NIMBUS_POSTGRES_URL.');
  if (!postgres && target.schema !== undefined)
    throw usageError('--reliability-schema is for PostgreSQL; a SQLite file has no schemas.');
  const where = postgres ? 'PostgreSQL (NIMBUS_POSTGRES_URL)' : `SQLite ${target.database}`;
  const withTables = async <T>(
    work: (
      outbox: ReturnType<typeof createSqliteOutboxStore>,
      inbox: ReturnType<typeof createSqliteInboxStore>,
    ) => Promise<T>,
  ): Promise<T> => {
    const tables = (name: string | undefined) => ({
      ...(name ? { tableName: name } : {}),
      ...(target.schema ? { schema: target.schema } : {}),
    });
    if (postgres) {
      const pool = openPostgresPool({
        connectionString: config.postgresUrl ?? '',
        max: 1,
        applicationName: 'nimbus-migrate',
      });
      try {
        return await work(
          createPostgresOutboxStore(pool, tables(target.outboxTable)),
          createPostgresInboxStore(pool, tables(target.inboxTable)),
        );
      } finally {
        await pool.end();
      }
    }
    const db = openSqliteDatabase(target.database);
    try {
      return await work(
        createSqliteOutboxStore(db, tables(target.outboxTable)),
        createSqliteInboxStore(db, tables(target.inboxTable)),
      );
    } finally {
      db.close();
    }
  };
  return [
    {
      key: 'outbox',
      label: 'outbox',
      where,
      run: (mode, onProgress) => withTables((outbox) => outbox.migrate(mode, { onProgress })),
    },
    {
      key: 'inbox',
      label: 'inbox',
      where,
      run: (mode, onProgress) => withTables((_, inbox) => inbox.migrate(mode, { onProgress })),
    },
  ];
}

/** Every schema of the product for this configuration, in the order they are migrated. */
export function schemaParts(config: NimbusConfig, reliability: ReliabilityTarget | null): SchemaPart[] {
  return [
    storePart(config),
    transportPart(config),
    ...webAppParts(config),
    ...(reliability ? reliabilityParts(config, reliability) : []),
  ].filter((part): part is SchemaPart => part !== null);
}
