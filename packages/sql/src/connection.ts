import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { SqlDialect } from './dialect.js';
import { type Row, type SqlExecutor, toPostgresPlaceholders } from './executor.js';

/**
 * Anything NimBus runs SQL on for a caller: a Kysely instance or transaction (either dialect), a `pg` pool or
 * client, or a better-sqlite3 database. Passing the caller's transaction makes the writes part of it.
 */
export type SqlConnection =
  // biome-ignore lint/suspicious/noExplicitAny: works on the caller's database whatever its schema type
  | Kysely<any>
  // biome-ignore lint/suspicious/noExplicitAny: as above
  | Transaction<any>
  | pg.Pool
  | pg.ClientBase
  | BetterSqlite3.Database;

function isKysely(connection: SqlConnection): connection is Kysely<unknown> {
  return typeof (connection as Kysely<unknown>).executeQuery === 'function';
}

function isSqliteDatabase(connection: SqlConnection): connection is BetterSqlite3.Database {
  return typeof (connection as BetterSqlite3.Database).prepare === 'function';
}

function isPg(connection: SqlConnection): connection is pg.Pool | pg.ClientBase {
  return typeof (connection as pg.Pool).query === 'function';
}

function refuse(message: string): never {
  throw new NimBusError(NimBusErrorCode.InvalidArgument, message);
}

/** The executor over `connection`; `dialect` says which SQL it speaks (a driver of the other kind is refused). */
export function sqlExecutorOf(connection: SqlConnection, dialect: SqlDialect): SqlExecutor {
  const text = dialect === 'postgres' ? toPostgresPlaceholders : (statement: string) => statement;
  if (isKysely(connection)) {
    const execute = (statement: string, params: readonly unknown[]) =>
      connection.executeQuery(CompiledQuery.raw(text(statement), [...params]));
    return {
      all: async (statement, params = []) => (await execute(statement, params)).rows as Row[],
      run: async (statement, params = []) => Number((await execute(statement, params)).numAffectedRows ?? 0),
    };
  }
  if (isSqliteDatabase(connection)) {
    if (dialect !== 'sqlite') refuse('A better-sqlite3 database can only back SQLite tables');
    return {
      async all(statement, params = []) {
        const prepared = connection.prepare(statement);
        if (prepared.reader) return prepared.all(...params) as Row[];
        prepared.run(...params);
        return [];
      },
      run: async (statement, params = []) => connection.prepare(statement).run(...params).changes,
    };
  }
  if (isPg(connection)) {
    if (dialect !== 'postgres') refuse('A pg pool or client can only back PostgreSQL tables');
    return {
      all: async (statement, params = []) =>
        (await connection.query(text(statement), [...params])).rows as Row[],
      run: async (statement, params = []) =>
        (await connection.query(text(statement), [...params])).rowCount ?? 0,
    };
  }
  return refuse(
    'Unsupported SQL connection: pass a Kysely instance or transaction, a pg pool/client, or a better-sqlite3 database',
  );
}

/**
 * Runs `work` in one transaction on `connection` (joined when `connection` already is one): `BEGIN IMMEDIATE` on
 * SQLite (the write lock from the start, so a read-then-write never fails on the upgrade), a pooled client's
 * BEGIN/COMMIT or a Kysely transaction on PostgreSQL.
 */
export async function inTransaction<T>(
  connection: SqlConnection,
  dialect: SqlDialect,
  work: (tx: SqlExecutor) => Promise<T>,
): Promise<T> {
  if (isKysely(connection)) {
    const kysely = connection as Kysely<unknown> & { isTransaction?: boolean };
    if (kysely.isTransaction) return work(sqlExecutorOf(connection, dialect));
    if (dialect === 'postgres')
      return kysely.transaction().execute((trx) => work(sqlExecutorOf(trx, dialect)));
    return kysely.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(sqlExecutorOf(conn, dialect));
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        // SQLite rolls some failures back itself; the caller needs the failure, not "no transaction is active".
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      }
    });
  }
  if (isSqliteDatabase(connection)) {
    if (connection.inTransaction) return work(sqlExecutorOf(connection, dialect));
    connection.exec('begin immediate');
    try {
      const result = await work(sqlExecutorOf(connection, dialect));
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
      const result = await work(sqlExecutorOf(client, dialect));
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
