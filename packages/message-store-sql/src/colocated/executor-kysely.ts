import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { ProjectionSqlExecutor } from '@nimbus/message-store';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { SqlDialectName } from '../config/sql-store-settings.js';
import type { StoreDb } from '../dialect/sql-dialect.js';
import type { StoreDatabase } from '../schema/database.js';
import { TableMappingPlugin, type TablePlacement } from '../schema/table-mapping-plugin.js';

/** A connection that runs every compiled statement on someone else's open transaction. */
class ExecutorConnection implements DatabaseConnection {
  constructor(private readonly executor: ProjectionSqlExecutor) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.executor.all(query.sql, query.parameters);
    return { rows: rows as R[] };
  }

  // biome-ignore lint/correctness/useYield: the store's writes never stream.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new NimBusError(
      NimBusErrorCode.NotSupported,
      'A co-located projection does not stream query results',
    );
  }
}

/** The transaction belongs to the caller: this driver neither begins, commits nor rolls it back. */
class ExecutorDriver implements Driver {
  readonly #connection: ExecutorConnection;
  constructor(executor: ProjectionSqlExecutor) {
    this.#connection = new ExecutorConnection(executor);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new NimBusError(
      NimBusErrorCode.NotSupported,
      'A co-located projection writes inside the transport transaction; it opens none',
    );
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * The store's query builder (same table mapping, same compiler) bound to a transaction the transport holds, so
 * the store's own write functions run unchanged inside it.
 */
export function kyselyOver(
  dialect: SqlDialectName,
  placement: TablePlacement,
  executor: ProjectionSqlExecutor,
): StoreDb {
  const sqlite = dialect === 'sqlite';
  const config: Dialect = {
    createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
    createDriver: () => new ExecutorDriver(executor),
    createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
    createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
  };
  return new Kysely<StoreDatabase>({ dialect: config, plugins: [new TableMappingPlugin(placement)] });
}
