import type { SqlExecutor } from '@nimbus/sql';

/** The one executor type of `@nimbus/sql` (`?` placeholders, `all` and `run`). */
export type { Row, SqlExecutor } from '@nimbus/sql';

export interface SqlDatabase extends SqlExecutor {
  /** SQL expression for the database clock in epoch milliseconds. */
  readonly nowMs: string;
  /** Row-lock suffix for a candidate SELECT (empty on SQLite, where a write transaction is exclusive). */
  readonly skipLocked: string;
  /** Runs `fn` in one transaction (READ COMMITTED on PostgreSQL, `BEGIN IMMEDIATE` on SQLite). */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
