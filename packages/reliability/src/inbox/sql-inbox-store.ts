import { type Clock, systemClock } from '@nimbus/core';
import type { MigrationMode, MigrationRunResult } from '@nimbus/sql';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { type MigrateOptions, migrateTable } from '../sql/migrate-table.js';
import {
  type AnyKysely,
  executorFor,
  qualifiedTableName,
  type SqlConnection,
  type SqlDialect,
  type SqlExecutor,
} from '../sql/sql-connection.js';
import { inboxMigrations } from './inbox-migrations.js';
import { INBOX_PURGE_BATCH, type InboxStore, inboxIdentity } from './inbox-store.js';

export interface SqlInboxOptions {
  /** Default `nimbus_inbox`. */
  readonly tableName?: string;
  /** PostgreSQL only; default the connection's search path. */
  readonly schema?: string;
  /** Check the table's migrations on first use (in `migrationMode`). Default true. */
  readonly autoCreateTable?: boolean;
  /**
   * `AutoApply` (default): the first use applies pending migrations (creating the table); `VerifyOnly`: it runs
   * no DDL and fails with `SchemaOutOfDateError` while a migration is missing (apply them with
   * `nimbus store migrate` or `migrate('AutoApply')` from the deployment).
   */
  readonly migrationMode?: MigrationMode;
  readonly clock?: Clock;
}

/** The inbox on SQLite or PostgreSQL. Lookups go by a hash key and then compare both ids exactly. */
export class SqlInboxStore implements InboxStore {
  readonly provider: SqlDialect;
  readonly #connection: SqlConnection;
  readonly #executor: SqlExecutor;
  readonly #tableName: string;
  readonly #schema: string | undefined;
  readonly #table: string;
  readonly #clock: Clock;
  readonly #autoCreate: boolean;
  readonly #mode: MigrationMode;
  #created: Promise<unknown> | undefined;

  constructor(connection: SqlConnection, dialect: SqlDialect, options: SqlInboxOptions = {}) {
    this.provider = dialect;
    this.#connection = connection;
    this.#executor = executorFor(connection, dialect);
    this.#tableName = options.tableName ?? 'nimbus_inbox';
    this.#schema = options.schema;
    this.#table = qualifiedTableName(this.#tableName, options.schema, 'SqlInboxStore');
    this.#clock = options.clock ?? systemClock;
    this.#autoCreate = options.autoCreateTable ?? true;
    this.#mode = options.migrationMode ?? 'AutoApply';
  }

  /**
   * Brings the table up to date through its journal (`<tableName>_migrations` beside it): `AutoApply` applies what
   * is pending (a table an older version created is baselined), `VerifyOnly` runs no DDL and throws
   * `SchemaOutOfDateError` naming what is missing.
   */
  migrate(mode: MigrationMode = 'AutoApply', options: MigrateOptions = {}): Promise<MigrationRunResult> {
    const at = {
      dialect: this.provider,
      tableName: this.#tableName,
      schema: this.#schema,
      table: this.#table,
    };
    const table = { ...at, connection: this.#connection, placement: `inbox table ${this.#table}` };
    return migrateTable(table, inboxMigrations(at), mode, options);
  }

  /** `migrate('AutoApply')`: creates the table and its index when missing; safe to call any number of times. */
  async ensureTableExists(): Promise<void> {
    await this.migrate('AutoApply');
  }

  async #ready(): Promise<void> {
    if (!this.#autoCreate) return;
    this.#created ??= this.migrate(this.#mode).catch((error) => {
      this.#created = undefined;
      throw error;
    });
    await this.#created;
  }

  async hasProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    await this.#ready();
    const rows = await this.#executor.all(
      `select 1 as found from ${this.#table} where identity_hash = ? and endpoint_id = ? and message_id = ?`,
      [inboxIdentity(endpointId, messageId), endpointId, messageId],
    );
    return rows.length > 0;
  }

  async recordProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.#ready();
    await this.#executor.run(
      `insert into ${this.#table} (identity_hash, endpoint_id, message_id, created_at) values (?, ?, ?, ?)
       on conflict (identity_hash) do nothing`,
      [inboxIdentity(endpointId, messageId), endpointId, messageId, this.#clock.now()],
    );
  }

  async purgeExpired(endpointId: string, cutoff: Date, signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    await this.#ready();
    return this.#executor.run(
      `delete from ${this.#table} where identity_hash in (
         select identity_hash from ${this.#table} where endpoint_id = ? and created_at < ? limit ${INBOX_PURGE_BATCH}
       )`,
      [endpointId, cutoff.getTime()],
    );
  }
}

export function createSqliteInboxStore(db: BetterSqlite3.Database | AnyKysely, options?: SqlInboxOptions) {
  return new SqlInboxStore(db, 'sqlite', options);
}

export function createPostgresInboxStore(pool: pg.Pool | AnyKysely, options?: SqlInboxOptions) {
  return new SqlInboxStore(pool, 'postgres', options);
}
