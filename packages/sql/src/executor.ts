/** A row as the driver returns it; callers map columns explicitly. */
export type Row = Record<string, unknown>;

/**
 * The one executor type of NimBus SQL: runs parameterised SQL written with `?` placeholders (rewritten to `$n` for
 * PostgreSQL) on a connection or inside a transaction. The SQL transport, the outbox/inbox and the migration
 * journals run on it; `sqlExecutorOf` makes one of any connection a user hands in.
 */
export interface SqlExecutor {
  /** `prepared`: a hot statement of fixed shape; PostgreSQL keeps it as a named prepared statement per connection. */
  all(sql: string, params?: readonly unknown[], options?: { readonly prepared?: boolean }): Promise<Row[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
export function toPostgresPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
