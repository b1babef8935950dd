import { type Clock, systemClock } from '@nimbus/core';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import {
  type AnyKysely,
  epochType,
  executorFor,
  qualifiedTableName,
  type SqlConnection,
  type SqlDialect,
  type SqlExecutor,
} from '../sql/sql-connection.js';
import { INBOX_PURGE_BATCH, type InboxStore, inboxIdentity } from './inbox-store.js';

export interface SqlInboxOptions {
  /** Default `nimbus_inbox`. */
  readonly tableName?: string;
  /** PostgreSQL only; default the connection's search path. */
  readonly schema?: string;
  /** Create the table on first use. Default true. */
  readonly autoCreateTable?: boolean;
  readonly clock?: Clock;
}

/** The inbox on SQLite or PostgreSQL. Lookups go by a hash key and then compare both ids exactly. */
export class SqlInboxStore implements InboxStore {
  readonly provider: SqlDialect;
  readonly #executor: SqlExecutor;
  readonly #table: string;
  readonly #clock: Clock;
  readonly #autoCreate: boolean;
  #created: Promise<void> | undefined;

  constructor(connection: SqlConnection, dialect: SqlDialect, options: SqlInboxOptions = {}) {
    this.provider = dialect;
    this.#executor = executorFor(connection, dialect);
    this.#table = qualifiedTableName(options.tableName ?? 'nimbus_inbox', options.schema, 'SqlInboxStore');
    this.#clock = options.clock ?? systemClock;
    this.#autoCreate = options.autoCreateTable ?? true;
  }

  /** Creates the table and its index when missing; safe to call any number of times. */
  async ensureTableExists(): Promise<void> {
    const e = this.#executor;
    await e.execute(
      `create table if not exists ${this.#table} (
        identity_hash text primary key,
        endpoint_id text not null,
        message_id text not null,
        created_at ${epochType(e.dialect)} not null
      )`,
    );
    const index = `"${this.#table.replace(/"/g, '').replace(/\./g, '_')}_endpoint_created"`;
    await e.execute(`create index if not exists ${index} on ${this.#table} (endpoint_id, created_at)`);
  }

  async #ready(): Promise<void> {
    if (!this.#autoCreate) return;
    this.#created ??= this.ensureTableExists().catch((error) => {
      this.#created = undefined;
      throw error;
    });
    await this.#created;
  }

  async hasProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    await this.#ready();
    const rows = await this.#executor.query(
      `select 1 as found from ${this.#table} where identity_hash = ? and endpoint_id = ? and message_id = ?`,
      [inboxIdentity(endpointId, messageId), endpointId, messageId],
    );
    return rows.length > 0;
  }

  async recordProcessed(endpointId: string, messageId: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.#ready();
    await this.#executor.execute(
      `insert into ${this.#table} (identity_hash, endpoint_id, message_id, created_at) values (?, ?, ?, ?)
       on conflict (identity_hash) do nothing`,
      [inboxIdentity(endpointId, messageId), endpointId, messageId, this.#clock.now()],
    );
  }

  async purgeExpired(endpointId: string, cutoff: Date, signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    await this.#ready();
    return this.#executor.execute(
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
