import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type pg from 'pg';
import { loadPg } from './drivers.js';
import { sqlName } from './sql-name.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Bounded waits for every statement on a connection, sent as PostgreSQL session settings when it connects:
 * a statement that runs longer is cancelled (`statement_timeout`, SQLSTATE 57014), a lock not granted in time is
 * given up (`lock_timeout`, SQLSTATE 55P03). Both classify as `busy` (retryable). 0 or absent: the server's own
 * setting (off by default).
 */
export interface StatementTimeouts {
  readonly statementTimeoutMs?: number;
  readonly lockTimeoutMs?: number;
}

export interface PostgresConnectionOptions extends StatementTimeouts {
  readonly connectionString: string;
  /** Shown in `pg_stat_activity`; default `nimbus`. */
  readonly applicationName?: string;
  /** How long to wait for a connection (pool checkout included) before failing; default 10 000 ms. */
  readonly connectionTimeoutMs?: number;
  /** Also read `numeric` columns as JS numbers (aggregates such as `sum()`); default false. */
  readonly numericAsNumber?: boolean;
  /**
   * Told about errors of connections nobody was using at the time (an idle pooled client, a checked-out client
   * between queries, a dedicated client). The error is already handled (the connection is discarded and the next
   * use reconnects); this is for logging. Default: ignore.
   */
  readonly onConnectionError?: (error: Error) => void;
}

export interface PostgresPoolOptions extends PostgresConnectionOptions {
  /** Most connections; default 10. */
  readonly max?: number;
  /** Idle connections are closed after this long; default 30 000 ms. */
  readonly idleTimeoutMs?: number;
}

/**
 * Epoch-millisecond and sequence columns are `bigint`; they fit a double exactly for the next few hundred
 * thousand years, so they are read as numbers.
 */
export function postgresTypes(numericAsNumber = false): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID || (numericAsNumber && oid === NUMERIC_OID)
        ? (value: string) => Number(value)
        : loadPg().types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
}

function clientConfig(options: PostgresConnectionOptions): pg.ClientConfig {
  const statementTimeoutMs = timeout('statementTimeoutMs', options.statementTimeoutMs);
  const lockTimeoutMs = timeout('lockTimeoutMs', options.lockTimeoutMs);
  return {
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    ...(lockTimeoutMs > 0 ? { lock_timeout: lockTimeoutMs } : {}),
    connectionString: options.connectionString,
    application_name: options.applicationName ?? 'nimbus',
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    // Detects a peer that vanished without a FIN (a dead host, a dropped route) instead of waiting forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: postgresTypes(options.numericAsNumber),
  };
}

function timeout(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!(Number.isInteger(value) && value >= 0))
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `PostgreSQL option ${name} must be a whole number of milliseconds >= 0, got ${String(value)}`,
    );
  return value;
}

/**
 * A `pg` pool that never takes the process down: `pg` emits `'error'` on a client whose connection breaks while
 * nobody awaits a query on it (idle in the pool, or checked out between two queries), and an `'error'` event with
 * no listener kills Node. The pool gets a listener, and so does every client for its whole life (the pool's own
 * listener is removed while a client is checked out).
 */
export function openPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const onError = options.onConnectionError ?? (() => undefined);
  const pool = new (loadPg().Pool)({
    ...clientConfig(options),
    max: options.max ?? 10,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
  });
  pool.on('error', onError);
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  return pool;
}

/** A dedicated (unpooled, not yet connected) client, e.g. for LISTEN, with its `'error'` listener attached. */
export function openPostgresClient(options: PostgresConnectionOptions): pg.Client {
  const client = new (loadPg().Client)(clientConfig(options));
  client.on('error', options.onConnectionError ?? (() => undefined));
  return client;
}

/** Quotes an identifier for PostgreSQL after checking it against the one identifier rule (`sqlName`). */
export function quotePostgresIdentifier(name: string, what = 'identifier'): string {
  return `"${sqlName(name, what)}"`;
}
