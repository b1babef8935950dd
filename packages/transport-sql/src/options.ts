import type { Logger } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { ColocatedProjection } from '@nimbus/message-store';
import type { MigrationMode, MigrationProgress } from '@nimbus/sql';

/** An SQLite file shared by the processes of one machine. */
export interface SqliteTransportConnection {
  readonly dialect: 'sqlite';
  /** Database file; every process that opens the same file shares the transport (WAL mode). */
  readonly path: string;
  /** Prefix for table names (SQLite has no schemas); default `nimbus_transport_`. */
  readonly tablePrefix?: string;
}

/** A PostgreSQL database shared by many machines. */
export interface PostgresTransportConnection {
  readonly dialect: 'postgres';
  readonly connectionString: string;
  /** Schema holding the tables; default `nimbus_transport`. */
  readonly schema?: string;
  /** Pool size for the pg pool; default 10. The LISTEN connection is extra. */
  readonly poolSize?: number;
  /** `statement_timeout` of every pooled connection (ms; absent or 0: the server's setting). */
  readonly statementTimeoutMs?: number;
  /** `lock_timeout` of every pooled connection (ms; absent or 0: the server's setting). */
  readonly lockTimeoutMs?: number;
}

/** Where the transport keeps its tables. */
export type SqlTransportConnection = SqliteTransportConnection | PostgresTransportConnection;

export interface SqlTransportOptions {
  /** Session lease length; default 30 000 ms. */
  readonly lockDurationMs?: number;
  /** A message delivered this many times without settlement is dead-lettered; default 10. */
  readonly maxDeliveryCount?: number;
  /** Budget for one publish call (body + headers in bytes); default 1 MiB. */
  readonly maxBatchBytes?: number;
  /**
   * Longest wait between checks for new work. PostgreSQL is woken by LISTEN/NOTIFY and polls at this
   * interval only as a fallback (default 1000 ms); SQLite polls adaptively from `minPollIntervalMs` up to this
   * (default 200 ms).
   */
  readonly pollIntervalMs?: number;
  /** Shortest SQLite poll interval, used right after work was seen; default 2 ms. */
  readonly minPollIntervalMs?: number;
  /** How long publishers trust their cached copy of the routes; default 1000 ms. */
  readonly topologyCacheMs?: number;
  /** SQLite busy timeout while another process holds the write lock; default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** PostgreSQL: NOTIFYs per input are coalesced into one per this window (bounds wake-up latency); default 20 ms. */
  readonly notifyWindowMs?: number;
  /**
   * How often this process deletes idle session rows (empty line, no state, nothing parked or scheduled, lease
   * over) that a release did not already remove, e.g. after a crash; default 60 000 ms, 0 turns it off.
   */
  readonly idleSessionSweepMs?: number;
  /**
   * `AutoApply` (default) applies pending schema migrations at open, under a lock; `VerifyOnly` runs no DDL and
   * refuses (`SchemaOutOfDateError`) a schema that is behind. On a current schema neither runs DDL.
   */
  readonly migrationMode?: MigrationMode;
  /** Told before and after each migration applied at open. */
  readonly onMigrationProgress?: (progress: MigrationProgress) => void;
  /**
   * A message store in this same database (`createSqlColocatedProjection` of `@nimbus/message-store-sql`): the
   * plain copies addressed to the Resolver are then recorded in the store inside the transaction that settles
   * or publishes them, instead of being delivered to the Resolver. Default none.
   */
  readonly projection?: ColocatedProjection;
  /**
   * Group commit across sessions: plain completions of up to this many sessions' leases handed in while a group
   * is being written are settled together in one transaction (one statement removes them all, each checked
   * against its own lease); default 2 group transactions in flight, 0 settles every lease on its own.
   */
  readonly settleGroupConcurrency?: number;
  /** Most messages one settlement group removes; default 256. */
  readonly settleGroupMaxMessages?: number;
  /** Where the transport reports what it survives (a failed NOTIFY, a dropped LISTEN connection); default console. */
  readonly logger?: Logger;
}

export interface ResolvedOptions {
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  readonly maxBatchBytes: number;
  readonly pollIntervalMs: number;
  readonly minPollIntervalMs: number;
  readonly topologyCacheMs: number;
  readonly busyTimeoutMs: number;
  readonly notifyWindowMs: number;
  readonly idleSessionSweepMs: number;
  readonly settleGroupConcurrency: number;
  readonly settleGroupMaxMessages: number;
}

/** `defaultPollIntervalMs` is the dialect's (PostgreSQL polls only as a fallback, SQLite adaptively). */
export function resolveOptions(options: SqlTransportOptions, defaultPollIntervalMs: number): ResolvedOptions {
  const resolved: ResolvedOptions = {
    lockDurationMs: options.lockDurationMs ?? 30_000,
    maxDeliveryCount: options.maxDeliveryCount ?? 10,
    maxBatchBytes: options.maxBatchBytes ?? 1024 * 1024,
    pollIntervalMs: options.pollIntervalMs ?? defaultPollIntervalMs,
    minPollIntervalMs: options.minPollIntervalMs ?? 2,
    topologyCacheMs: options.topologyCacheMs ?? 1000,
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    notifyWindowMs: options.notifyWindowMs ?? 20,
    idleSessionSweepMs: options.idleSessionSweepMs ?? 60_000,
    settleGroupConcurrency: options.settleGroupConcurrency ?? 2,
    settleGroupMaxMessages: options.settleGroupMaxMessages ?? 256,
  };
  for (const [name, value] of Object.entries(resolved)) {
    const allowZero = [
      'topologyCacheMs',
      'minPollIntervalMs',
      'notifyWindowMs',
      'idleSessionSweepMs',
      'settleGroupConcurrency',
    ].includes(name);
    if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        `SQL transport option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`,
      );
    }
  }
  return resolved;
}
