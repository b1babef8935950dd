import type { Logger } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';
import type { SqlDialect } from '@nimbus/sql';
import type { ResolvedOptions } from '../options.js';
import type { Row, SqlDatabase, SqlExecutor } from '../sql/database.js';
import type { Tables } from '../tables.js';
import type { Wakeups } from '../wakeups.js';

// Everything the SQL transport does differently on SQLite and PostgreSQL, chosen once when it opens
// (`dialectOf` in open-database.ts). Each dialect folder has the same files, one per group below:
// database, schema, wakeups, line-append, receive, lease, release, settle, locks. The shared code calls these
// and never asks which database it runs on.
//
// A dialect only builds and runs statements: it gets what they need (`DialectContext`, a `LeaseFence`, plain
// data) and returns rows or outcomes. The shared core decides which path to take, throws the lease errors and
// wakes waiters; no dialect file imports sql-core, held-lease or sql-settle-rows (test/dialect-imports.test.ts).

/** What a dialect's statements need of the transport. `SqlCore` is one. */
export interface DialectContext {
  readonly db: SqlDatabase;
  readonly t: Tables;
  /** SQL for the database's clock in ms. */
  readonly now: string;
  readonly options: ResolvedOptions;
  /** The NOTIFY payloads for these work keys that belong in the current transaction (none on SQLite). */
  notifyNow(workKeys: Iterable<string>): string[];
}

/** A held session lease as a statement checks it: its session, token and the condition that it is live. */
export interface LeaseFence {
  readonly input: string;
  readonly sessionId: string;
  readonly token: string;
  /** SQL condition that holds while the lease is live (its parameters are `params`). */
  readonly validSql: string;
  readonly params: readonly unknown[];
}

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
  /**
   * Optional: a publish of copies due now with nothing for a co-located store, in one autocommitted statement;
   * returns the work keys to wake in this process. Without it every publish is a transaction (line-writer.ts).
   */
  publishPlain?(context: DialectContext, deliveries: readonly Delivery[]): Promise<Set<string>>;
  /** The last insert of a transactional append, carrying `payloads` to other processes at commit. */
  insertLastChunk(
    tx: SqlExecutor,
    insertSql: string,
    params: readonly unknown[],
    payloads: readonly string[],
    channel: string,
  ): Promise<void>;
}

/** What the dialect found when nothing was taken and it looked at the line in the same statement. */
export interface HeadInspection {
  /** The lease still holds. */
  readonly leased: boolean;
  /** ms until the input's next scheduled copy is due (0 or less: due now), null when none is scheduled. */
  readonly untilDue: number | null;
  /** Another session of the input has work and no lease. */
  readonly othersWaiting: boolean;
}

/** The messages taken at a leased line's head; with none, the inspection, or null when the core inspects. */
export interface HeadTake {
  readonly rows: Row[];
  readonly inspection: HeadInspection | null;
}

/** One lease's part of a `takeMany`. */
export interface HeadRequest {
  readonly lease: LeaseFence;
  readonly max: number;
}

/** receive.ts */
export interface DialectReceive {
  /** Takes up to `max` messages at the head of the leased line; with none, it may inspect the line too. */
  takeHead(context: DialectContext, lease: LeaseFence, max: number): Promise<HeadTake>;
  /**
   * Optional: takes up to `max` messages at the head of each lease's line in one statement, checking each lease
   * in it; returns the rows taken (each names its `input` and `session_id`).
   */
  takeMany?(context: DialectContext, requests: readonly HeadRequest[]): Promise<Row[]>;
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
    context: DialectContext,
    input: string,
    sessionId: string | null,
    token: string,
  ): Promise<LeasedSession | null>;
  /**
   * Leases up to `tokens.length` free sessions with work, longest waiting first, in one statement (PostgreSQL) or
   * one transaction (SQLite); the i-th session in that order gets `tokens[i]`. Returned in that order.
   */
  leaseSessions(context: DialectContext, input: string, tokens: readonly string[]): Promise<LeasedSession[]>;
}

/** release.ts */
export interface DialectRelease {
  /** Ends the lease inside `tx`; returns the work key to announce when the session has work left. */
  endLease(context: DialectContext, lease: LeaseFence, tx: SqlExecutor): Promise<Set<string> | null>;
}

/** One settled message of a one-statement settlement. */
export interface OneStatementMessage {
  readonly sequence: number;
  readonly deliveryCount: number;
  readonly deadLetter: {
    readonly id: string;
    readonly reason: string;
    readonly description: string | null;
  } | null;
}

/** Held messages of one lease settled together: all are removed or none is. */
export interface OneStatementSettle {
  readonly lease: LeaseFence;
  readonly messages: readonly OneStatementMessage[];
  /** JSON text, `null` to clear, `undefined` to keep. */
  readonly state: string | null | undefined;
  readonly deliveries: readonly Delivery[];
}

/** `guard`: the statement was rolled back because the lease check failed or only some messages were held. */
export type OneStatementOutcome = 'settled' | 'notHeld' | 'guard';

/** settle.ts */
export interface DialectSettle {
  /**
   * Optional: settles messages that touch no parked rows and publish nothing scheduled or co-located in one
   * statement; returns the work keys to wake when settled. Without it every settlement is a transaction
   * (sql-settle-rows.ts).
   */
  inOneStatement?(
    context: DialectContext,
    settle: OneStatementSettle,
  ): Promise<{ readonly outcome: OneStatementOutcome; readonly inputs: Set<string> }>;
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
