import { AsyncLocalStorage } from 'node:async_hooks';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { type SqlConnection, type SqlDialect, type SqlExecutor, sqlExecutorOf, sqlName } from '@nimbus/sql';
import type { Kysely } from 'kysely';

export type { SqlConnection, SqlDialect, SqlExecutor } from '@nimbus/sql';

/** A Kysely instance of either dialect, whatever its schema type. */
// biome-ignore lint/suspicious/noExplicitAny: the stores work on the caller's database whatever its schema type
export type AnyKysely = Kysely<any>;

/** The executor of `@nimbus/sql` over the caller's connection. */
export function executorFor(connection: SqlConnection, dialect: SqlDialect): SqlExecutor {
  return sqlExecutorOf(connection, dialect);
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

/** Checks the names against the one identifier rule (`sqlName`) and quotes the table, schema-qualified when given. */
export function qualifiedTableName(tableName: string, schema: string | undefined, what: string): string {
  sqlName(tableName, `${what} option 'tableName'`);
  if (schema !== undefined) sqlName(schema, `${what} option 'schema'`);
  return schema ? `"${schema}"."${tableName}"` : `"${tableName}"`;
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
