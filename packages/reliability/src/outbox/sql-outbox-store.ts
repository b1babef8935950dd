import { type Clock, NimBusError, NimBusErrorCode, systemClock, type TransportMessage } from '@nimbus/core';
import { inTransaction, type MigrationMode, type MigrationRunResult } from '@nimbus/sql';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { type MigrateOptions, migrateTable } from '../sql/migrate-table.js';
import {
  type AnyKysely,
  ambientTransaction,
  epochOf,
  executorFor,
  qualifiedTableName,
  type SqlConnection,
  type SqlDialect,
  type SqlExecutor,
} from '../sql/sql-connection.js';
import { OUTBOX_COLUMNS as COLUMNS, type OutboxPlacement, outboxMigrations } from './outbox-migrations.js';
import { derivedFields, outboxMessageOf } from './outbox-row.js';
import {
  MARK_CHUNK,
  type OutboxEntry,
  type OutboxMessage,
  type OutboxStore,
  type OutboxWriteOptions,
  positiveLimit,
  validateEntry,
} from './outbox-store.js';

export interface SqlOutboxOptions {
  /** Default `nimbus_outbox`. */
  readonly tableName?: string;
  /** PostgreSQL only; default the connection's search path. */
  readonly schema?: string;
  readonly clock?: Clock;
}

interface Row {
  id: string;
  source: string;
  payload: string;
  enqueue_at: unknown;
  created_at: unknown;
  dispatched_at: unknown;
}

function values(row: OutboxMessage): unknown[] {
  return [
    row.id,
    row.messageId,
    row.source,
    row.destination,
    row.eventTypeId,
    row.sessionId,
    row.correlationId,
    JSON.stringify(row.message),
    row.enqueueAt?.getTime() ?? null,
    row.createdAt.getTime(),
    null,
    row.traceParent,
    row.traceState,
  ];
}

function fromRow(row: Row): OutboxMessage {
  const message = JSON.parse(row.payload) as TransportMessage;
  const at = (value: unknown) => {
    const epoch = epochOf(value);
    return epoch === null ? null : new Date(epoch);
  };
  return {
    ...derivedFields(row.source, message),
    id: row.id,
    enqueueAt: at(row.enqueue_at),
    createdAt: at(row.created_at)!,
    dispatchedAt: at(row.dispatched_at),
  };
}

/** The outbox on SQLite or PostgreSQL; writes join the caller's transaction when one is given. */
export class SqlOutboxStore implements OutboxStore {
  readonly provider: SqlDialect;
  readonly #connection: SqlConnection;
  readonly #executor: SqlExecutor;
  readonly #tableName: string;
  readonly #schema: string | undefined;
  readonly #table: string;
  readonly #clock: Clock;

  constructor(connection: SqlConnection, dialect: SqlDialect, options: SqlOutboxOptions = {}) {
    this.provider = dialect;
    this.#connection = connection;
    this.#executor = executorFor(connection, dialect);
    this.#tableName = options.tableName ?? 'nimbus_outbox';
    this.#schema = options.schema;
    this.#table = qualifiedTableName(this.#tableName, options.schema, 'SqlOutboxStore');
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Brings the table up to date through its journal (`<tableName>_migrations` beside it): `AutoApply` applies what
   * is pending (a table an older version created is baselined, its rows kept), `VerifyOnly` runs no DDL and
   * throws `SchemaOutOfDateError` naming what is missing.
   */
  migrate(mode: MigrationMode = 'AutoApply', options: MigrateOptions = {}): Promise<MigrationRunResult> {
    const at: OutboxPlacement = {
      dialect: this.provider,
      tableName: this.#tableName,
      schema: this.#schema,
      table: this.#table,
    };
    const table = { ...at, connection: this.#connection, placement: `outbox table ${this.#table}` };
    return migrateTable(table, outboxMigrations(at), mode, options);
  }

  /** `migrate('AutoApply')`: creates or upgrades the table; safe to call repeatedly. */
  async ensureTableExists(): Promise<void> {
    await this.migrate('AutoApply');
  }

  async store(entry: OutboxEntry, options?: OutboxWriteOptions): Promise<OutboxMessage> {
    const [row] = await this.storeBatch([entry], options);
    return row!;
  }

  async storeBatch(
    entries: readonly OutboxEntry[],
    options: OutboxWriteOptions = {},
  ): Promise<OutboxMessage[]> {
    entries.forEach(validateEntry);
    const rows = entries.map((entry) => outboxMessageOf(entry, this.#clock.now()));
    if (rows.length === 0) return rows;
    const transaction: SqlConnection | undefined = options.transaction ?? ambientTransaction();
    if (transaction) await this.#insert(executorFor(transaction, this.provider), rows);
    else if (rows.length <= MARK_CHUNK) await this.#insert(this.#executor, rows);
    else await inTransaction(this.#connection, this.provider, (e) => this.#insert(e, rows));
    return rows;
  }

  /**
   * Stores entries synchronously on a better-sqlite3 database, for callers inside `db.transaction(() => …)`
   * (which cannot await). SQLite stores only.
   */
  storeBatchSync(db: BetterSqlite3.Database, entries: readonly OutboxEntry[]): OutboxMessage[] {
    if (this.provider !== 'sqlite')
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'storeBatchSync is only available on a SQLite outbox',
      );
    entries.forEach(validateEntry);
    const rows = entries.map((entry) => outboxMessageOf(entry, this.#clock.now()));
    const insert = db.prepare(
      `insert into ${this.#table} (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const row of rows) insert.run(...values(row));
    return rows;
  }

  async #insert(executor: SqlExecutor, rows: readonly OutboxMessage[]): Promise<void> {
    const placeholders = `(${COLUMNS.map(() => '?').join(', ')})`;
    for (let i = 0; i < rows.length; i += MARK_CHUNK) {
      const chunk = rows.slice(i, i + MARK_CHUNK);
      await executor.run(
        `insert into ${this.#table} (${COLUMNS.join(', ')}) values ${chunk.map(() => placeholders).join(', ')}`,
        chunk.flatMap(values),
      );
    }
  }

  async getPending(limit: number): Promise<OutboxMessage[]> {
    positiveLimit(limit, 'getPending limit');
    const rows = (await this.#executor.all(
      `select id, source, payload, enqueue_at, created_at, dispatched_at from ${this.#table}
       where dispatched_at is null order by created_at, id limit ?`,
      [limit],
    )) as unknown as Row[];
    return rows.map(fromRow);
  }

  async markAsDispatched(ids: readonly string[]): Promise<number> {
    const now = this.#clock.now();
    let marked = 0;
    for (let i = 0; i < ids.length; i += MARK_CHUNK) {
      const chunk = ids.slice(i, i + MARK_CHUNK);
      marked += await this.#executor.run(
        `update ${this.#table} set dispatched_at = ? where dispatched_at is null and id in (${chunk.map(() => '?').join(', ')})`,
        [now, ...chunk],
      );
    }
    return marked;
  }

  async purgeDispatched(olderThan: Date): Promise<number> {
    return this.#executor.run(
      `delete from ${this.#table} where dispatched_at is not null and dispatched_at < ?`,
      [olderThan.getTime()],
    );
  }

  async find(id: string): Promise<OutboxMessage | null> {
    const [row] = (await this.#executor.all(
      `select id, source, payload, enqueue_at, created_at, dispatched_at from ${this.#table} where id = ?`,
      [id],
    )) as unknown as Row[];
    return row ? fromRow(row) : null;
  }

  async pendingStats() {
    const [row] = await this.#executor.all(
      `select count(*) as count, min(created_at) as oldest from ${this.#table} where dispatched_at is null`,
    );
    const oldest = epochOf(row?.oldest);
    return { count: Number(row?.count ?? 0), oldestCreatedAt: oldest === null ? null : new Date(oldest) };
  }
}

export function createSqliteOutboxStore(db: BetterSqlite3.Database | AnyKysely, options?: SqlOutboxOptions) {
  return new SqlOutboxStore(db, 'sqlite', options);
}

export function createPostgresOutboxStore(pool: pg.Pool | AnyKysely, options?: SqlOutboxOptions) {
  return new SqlOutboxStore(pool, 'postgres', options);
}
