import { AsyncLocalStorage } from 'node:async_hooks';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';

export type { SqlDialect } from '@nimbus/sql';

import type { SqlDialect } from '@nimbus/sql';

/**
 * Anything a store can run SQL on: a Kysely instance or transaction (either dialect), a `pg` pool or client,
 * or a better-sqlite3 database. Passing the caller's transaction (or the connection it runs on) makes the store's
 * writes part of that transaction.
 */
// biome-ignore lint/suspicious/noExplicitAny: the stores work on the caller's database whatever its schema type
export type AnyKysely = Kysely<any>;

export type SqlConnection =
  // biome-ignore lint/suspicious/noExplicitAny: the store works on the caller's database whatever its schema type
  | Kysely<any>
  // biome-ignore lint/suspicious/noExplicitAny: as above
  | Transaction<any>
  | pg.Pool
  | pg.ClientBase
  | BetterSqlite3.Database;

/** Runs parameterised SQL written with `?` placeholders. */
export interface SqlExecutor {
  readonly dialect: SqlDialect;
  query<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Returns the number of affected rows. */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
}

function toPostgresPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

function isKysely(connection: SqlConnection): connection is Kysely<unknown> {
  return typeof (connection as Kysely<unknown>).executeQuery === 'function';
}

function isSqliteDatabase(connection: SqlConnection): connection is BetterSqlite3.Database {
  return typeof (connection as BetterSqlite3.Database).prepare === 'function';
}

function isPg(connection: SqlConnection): connection is pg.Pool | pg.ClientBase {
  return typeof (connection as pg.Pool).query === 'function';
}

export function executorFor(connection: SqlConnection, dialect: SqlDialect): SqlExecutor {
  const text = dialect === 'postgres' ? toPostgresPlaceholders : (sql: string) => sql;
  if (isKysely(connection)) {
    const run = (sql: string, params: readonly unknown[]) =>
      connection.executeQuery(CompiledQuery.raw(text(sql), [...params]));
    return {
      dialect,
      query: async <R>(sql: string, params: readonly unknown[] = []) => (await run(sql, params)).rows as R[],
      execute: async (sql, params = []) => Number((await run(sql, params)).numAffectedRows ?? 0),
    };
  }
  if (isSqliteDatabase(connection)) {
    if (dialect !== 'sqlite')
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'A better-sqlite3 database can only back a SQLite store',
      );
    return {
      dialect,
      query: async <R>(sql: string, params: readonly unknown[] = []) =>
        connection.prepare(sql).all(...params) as R[],
      execute: async (sql, params = []) => connection.prepare(sql).run(...params).changes,
    };
  }
  if (isPg(connection)) {
    if (dialect !== 'postgres')
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        'A pg pool or client can only back a PostgreSQL store',
      );
    return {
      dialect,
      query: async <R>(sql: string, params: readonly unknown[] = []) =>
        (await connection.query(text(sql), [...params])).rows as R[],
      execute: async (sql, params = []) => (await connection.query(text(sql), [...params])).rowCount ?? 0,
    };
  }
  throw new NimBusError(
    NimBusErrorCode.InvalidArgument,
    'Unsupported SQL connection: pass a Kysely instance or transaction, a pg pool/client, or a better-sqlite3 database',
  );
}

const ambient = new AsyncLocalStorage<SqlConnection>();

/**
 * Runs `fn` with `transaction` as the ambient transaction: outbox writes made inside it (for instance by a
 * publisher that only calls `transport.publish`) join that transaction. Nesting is refused.
 */
export function withAmbientTransaction<T>(transaction: SqlConnection, fn: () => Promise<T>): Promise<T> {
  if (ambient.getStore() !== undefined) {
    throw new NimBusError(
      NimBusErrorCode.InvalidState,
      'withAmbientTransaction: an ambient transaction is already active; nesting is not supported',
    );
  }
  return ambient.run(transaction, fn);
}

export function ambientTransaction(): SqlConnection | undefined {
  return ambient.getStore();
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Validates and quotes a table (optionally schema-qualified) name. */
export function qualifiedTableName(tableName: string, schema: string | undefined, what: string): string {
  for (const [label, value] of [
    ['tableName', tableName],
    ['schema', schema],
  ] as const) {
    if (value !== undefined && !IDENTIFIER.test(value)) {
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `${what}: ${label} must be a plain SQL identifier (letters, digits, _), got "${value}"`,
      );
    }
  }
  return schema ? `"${schema}"."${tableName}"` : `"${tableName}"`;
}

/** Column names of an existing table, or an empty set when it does not exist. */
export async function existingColumns(
  executor: SqlExecutor,
  tableName: string,
  schema: string | undefined,
): Promise<Set<string>> {
  if (executor.dialect === 'sqlite') {
    const rows = await executor.query<{ name: string }>(`select name from pragma_table_info(?)`, [tableName]);
    return new Set(rows.map((r) => r.name));
  }
  const rows = await executor.query<{ column_name: string }>(
    `select column_name from information_schema.columns where table_name = ? and table_schema = ?`,
    [tableName, schema ?? 'public'],
  );
  return new Set(rows.map((r) => r.column_name));
}

/** The dialect's type for epoch-millisecond timestamps. */
export function epochType(dialect: SqlDialect): string {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

/** Reads an epoch-millisecond column (`pg` returns bigint as text). */
export function epochOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Number(value);
}

/**
 * Runs `fn` in a transaction on the store's own connection: a Kysely transaction, a pooled pg client, or
 * BEGIN/COMMIT on a better-sqlite3 database (joined when one is already open).
 */
export async function inOwnTransaction<T>(
  connection: SqlConnection,
  dialect: SqlDialect,
  fn: (executor: SqlExecutor) => Promise<T>,
): Promise<T> {
  if (isKysely(connection)) {
    const kysely = connection as Kysely<unknown> & { isTransaction?: boolean };
    if (kysely.isTransaction) return fn(executorFor(connection, dialect));
    return kysely.transaction().execute((trx) => fn(executorFor(trx, dialect)));
  }
  if (isSqliteDatabase(connection)) {
    if (connection.inTransaction) return fn(executorFor(connection, dialect));
    connection.exec('begin immediate');
    try {
      const result = await fn(executorFor(connection, dialect));
      connection.exec('commit');
      return result;
    } catch (error) {
      if (connection.inTransaction) connection.exec('rollback');
      throw error;
    }
  }
  const pool = connection as pg.Pool;
  const pooled = typeof pool.connect === 'function' && 'totalCount' in pool;
  const client = pooled ? await pool.connect() : (connection as pg.ClientBase);
  try {
    await client.query('begin');
    try {
      const result = await fn(executorFor(client, dialect));
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  } finally {
    if (pooled) (client as pg.PoolClient).release();
  }
}
