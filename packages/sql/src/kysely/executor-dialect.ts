import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { SqlDialect } from '../dialect.js';
import type { SqlExecutor } from '../executor.js';

/** A connection that runs every compiled statement on someone else's open transaction. */
class ExecutorConnection implements DatabaseConnection {
  constructor(private readonly executor: Pick<SqlExecutor, 'all'>) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.executor.all(query.sql, query.parameters);
    return { rows: rows as R[] };
  }

  // biome-ignore lint/correctness/useYield: statements on a borrowed transaction never stream.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new NimBusError(
      NimBusErrorCode.NotSupported,
      'A borrowed transaction does not stream query results',
    );
  }
}

/** The transaction belongs to the caller: this driver neither begins, commits nor rolls it back. */
class ExecutorDriver implements Driver {
  readonly #connection: ExecutorConnection;
  constructor(executor: Pick<SqlExecutor, 'all'>) {
    this.#connection = new ExecutorConnection(executor);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new NimBusError(
      NimBusErrorCode.NotSupported,
      'Statements on a borrowed transaction run inside it; they open none',
    );
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * A Kysely dialect whose statements run on `executor` (a transaction someone else holds), compiled for
 * `dialect`: the placeholders are the driver's own (`$n` on PostgreSQL), so the executor runs them as they are.
 */
export function executorDialect(dialect: SqlDialect, executor: Pick<SqlExecutor, 'all'>): Dialect {
  const sqlite = dialect === 'sqlite';
  return {
    createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
    createDriver: () => new ExecutorDriver(executor),
    createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
    createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
  };
}
