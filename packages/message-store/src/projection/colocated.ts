import type { TransportMessage } from '@nimbus/core';

// The contract between a SQL transport and a SQL message store that live in the same database (one PostgreSQL
// database, one SQLite file). The transport hands every copy it routes to the Resolver to `plan`; the copies the
// projection takes are not delivered to the Resolver: their history records and guarded status rows are written
// by `write` inside the transport's own transaction (the settlement of the message that produced them, or the
// publish), so the store is never behind the bus. Everything else still travels to the Resolver.

/** Runs parameterised SQL in the caller's transaction (placeholders as the database's driver expects them). */
export interface ProjectionSqlExecutor {
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

/** What the projection decided for one copy (opaque to the transport). */
export interface ProjectionPlan {
  /** The endpoint whose rows the copy changes (told to the state-change notifier after commit). */
  readonly endpointId: string;
}

export interface ColocatedProjection {
  /** The database kind the projection's SQL is written for; a transport of another kind refuses it. */
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The plan of a copy addressed to the Resolver, or null when the Resolver must receive it (heartbeats, retries
   * with their audit, operator requests, refusals, handoff settlements, unreadable messages).
   */
  plan(message: TransportMessage): ProjectionPlan | null;
  /**
   * Writes the planned copies (history first, then the guarded status rows, in order) in `tx`; returns the
   * endpoints whose status rows changed (a write the stale-write guard refused changes nothing).
   */
  write(tx: ProjectionSqlExecutor, plans: readonly ProjectionPlan[]): Promise<readonly string[]>;
  /**
   * After the transaction committed: tells the state-change notifier once per changed endpoint, and does the
   * store's own after-commit upkeep on `db` (outside any transaction). Never throws.
   */
  committed(db: ProjectionSqlExecutor, endpoints: Iterable<string>): Promise<void>;
}
