import type { Logger } from '@nimbus/core';
import type { SqlDialect } from '@nimbus/sql';
import type { HeldLease } from '../held-lease.js';
import type { ResolvedOptions } from '../options.js';
import type { Row, SqlDatabase, SqlExecutor } from '../sql/database.js';
import type { PublishPlan, SqlCore } from '../sql-core.js';
import type { PlannedSettlement } from '../sql-settle-rows.js';
import type { Tables } from '../tables.js';
import type { Wakeups } from '../wakeups.js';

// Everything the SQL transport does differently on SQLite and PostgreSQL, chosen once when it opens
// (`dialectOf` in open-database.ts). Each dialect folder has the same files, one per group below:
// database, schema, wakeups, line-append, receive, lease, release, settle, locks. The shared code calls these
// and never asks which database it runs on.

/** An opened database with its table names and the way it hears about work other processes write. */
export interface OpenedTransportDatabase {
  readonly db: SqlDatabase;
  readonly tables: Tables;
  /** The PostgreSQL schema or the SQLite table prefix. */
  readonly namespace: string;
  /** Starts hearing about other processes' work: PostgreSQL LISTEN, SQLite one poller for the held lines. */
  listen(wakeups: Wakeups, logger: Logger, options: ResolvedOptions): Promise<WakeupListener | null>;
}

export interface WakeupListener {
  stop(): Promise<void>;
}

/** database.ts: validates the connection and opens its database (no statement runs yet). */
export interface DialectDatabase<C> {
  open(connection: C, busyTimeoutMs: number): OpenedTransportDatabase;
}

/** schema.ts: the DDL vocabulary of the migrations and how the migration journal is found and locked. */
export interface DialectSchema {
  readonly columnTypes: { readonly bigint: string; readonly identity: string };
  /** How a migration error names where the tables are. */
  placement(namespace: string): string;
  journalExists(executor: SqlExecutor, journal: string): Promise<boolean>;
  /** Serialises concurrent migrators inside `tx`. */
  lockForMigration(tx: SqlExecutor, namespace: string): Promise<void>;
  createNamespace(tx: SqlExecutor, namespace: string): Promise<void>;
}

/** Tells other processes about new work (PostgreSQL NOTIFY), or nobody (SQLite). */
export interface WorkNotifier {
  /** The payloads the current transaction sends itself for these work keys; the rest go later, coalesced. */
  take(workKeys: Iterable<string>): string[];
  close(): void;
}

export interface NotifierContext {
  readonly origin: string;
  readonly windowMs: number;
  readonly db: SqlExecutor;
  readonly channel: string;
  readonly logger: Logger;
}

/** wakeups.ts: cross-process notification and how long a waiting accept or receive sleeps between polls. */
export interface DialectWakeups {
  createNotifier(context: NotifierContext): WorkNotifier;
  firstPollMs(options: ResolvedOptions): number;
  /** The interval after an empty poll that waited `current`. */
  nextPollMs(current: number, options: ResolvedOptions): number;
  /** How often a receive on a held session looks at its own line while nothing wakes it (the fallback). */
  receivePollMs(options: ResolvedOptions): number;
}

/** line-append.ts: how copies reach the session lines. */
export interface DialectLineAppend {
  /** A publish of planned copies; returns the work keys to wake in this process. */
  publish(core: SqlCore, plans: readonly PublishPlan[]): Promise<Set<string>>;
  /** The last insert of a transactional append, carrying `payloads` to other processes at commit. */
  insertLastChunk(
    tx: SqlExecutor,
    insertSql: string,
    params: readonly unknown[],
    payloads: readonly string[],
    channel: string,
  ): Promise<void>;
}

/** What one look at a leased line found. `nextDue`: 0 = look again now, null = nothing scheduled, else ms. */
export interface TakenHead {
  readonly rows: Row[];
  readonly nextDue: number | null;
  /** Another session of the input has work and no lease. */
  readonly othersWaiting: boolean;
}

/** receive.ts */
export interface DialectReceive {
  /** Takes up to `max` messages at the head of the leased line or, when there are none, inspects it. */
  takeHead(lease: HeldLease, max: number): Promise<TakenHead>;
  /**
   * Optional: takes up to `max` messages at the head of each lease's line in one statement, checking each lease
   * in it; the rows taken per `leaseKey(input, sessionId)` (a lease with nothing taken may be missing).
   */
  takeMany?(
    core: SqlCore,
    leases: readonly { readonly lease: HeldLease; readonly max: number }[],
  ): Promise<Map<string, Row[]>>;
}

/** The leased session row and the flags `exhausted` and `pending` of its line. */
export interface LeasedSession {
  readonly row: Row;
  readonly line: Row | undefined;
}

/** lease.ts */
export interface DialectLease {
  /** Leases the named session, or the free session with work that has waited longest, with `token`. */
  leaseSession(
    core: SqlCore,
    input: string,
    sessionId: string | null,
    token: string,
  ): Promise<LeasedSession | null>;
  /**
   * Leases up to `tokens.length` free sessions with work, longest waiting first, in one statement (PostgreSQL) or
   * one transaction (SQLite); the i-th session in that order gets `tokens[i]`. Returned in that order.
   */
  leaseSessions(core: SqlCore, input: string, tokens: readonly string[]): Promise<LeasedSession[]>;
}

/** release.ts */
export interface DialectRelease {
  /** Ends the lease inside `tx`; returns the work key to announce when the session has work left. */
  endLease(lease: HeldLease, tx: SqlExecutor): Promise<Set<string> | null>;
}

/** settle.ts */
export interface DialectSettle {
  one(lease: HeldLease, settlement: PlannedSettlement): Promise<void>;
  many(lease: HeldLease, settlements: readonly PlannedSettlement[]): Promise<void>;
}

/** locks.ts: serialisation SQLite gets from its single writer and PostgreSQL must ask for. */
export interface DialectLocks {
  /** Serialises concurrent `applyTopology` calls inside `tx`. */
  lockTopology(tx: SqlExecutor, t: Tables): Promise<void>;
  /** Makes the idle-session sweep in `tx` fail rather than delete a row changed after its snapshot. */
  isolateSweep(tx: SqlExecutor): Promise<void>;
}

export interface TransportDialect<C = unknown> {
  readonly name: SqlDialect;
  readonly defaultPollIntervalMs: number;
  readonly database: DialectDatabase<C>;
  readonly schema: DialectSchema;
  readonly wakeups: DialectWakeups;
  readonly lineAppend: DialectLineAppend;
  readonly receive: DialectReceive;
  readonly lease: DialectLease;
  readonly release: DialectRelease;
  readonly settle: DialectSettle;
  readonly locks: DialectLocks;
}
