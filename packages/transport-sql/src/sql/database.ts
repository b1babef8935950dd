/** A row as the driver returns it; callers map columns explicitly. */
export type Row = Record<string, unknown>;

/** Runs parameterised SQL written with `?` placeholders (rewritten to `$n` for PostgreSQL). */
export interface SqlExecutor {
  /** `prepared`: a hot statement of fixed shape; PostgreSQL keeps it as a named prepared statement per connection. */
  all(sql: string, params?: readonly unknown[], options?: { readonly prepared?: boolean }): Promise<Row[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface SqlDatabase extends SqlExecutor {
  /** SQL expression for the database clock in epoch milliseconds. */
  readonly nowMs: string;
  /** Row-lock suffix for a candidate SELECT (empty on SQLite, where a write transaction is exclusive). */
  readonly skipLocked: string;
  /** Runs `fn` in one transaction (READ COMMITTED on PostgreSQL, `BEGIN IMMEDIATE` on SQLite). */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
