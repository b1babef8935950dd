/**
 * Why a driver call failed, in the one vocabulary every package shares:
 * - `connection`: the connection could not be made or was lost (refused, reset, terminated, SQLSTATE class 08);
 * - `unavailable`: the server is up but not serving (shutting down, starting up, in recovery);
 * - `overloaded`: too many connections or a resource limit;
 * - `conflict`: a deadlock or serialization failure (the transaction may simply be run again);
 * - `busy`: another writer holds the lock (SQLITE_BUSY/LOCKED, lock timeout, statement cancelled on timeout);
 * - `permanent`: anything else (syntax, constraint, bad input): retrying cannot help.
 */
export type DriverErrorReason =
  | 'connection'
  | 'unavailable'
  | 'overloaded'
  | 'conflict'
  | 'busy'
  | 'permanent';

export interface DriverErrorClassification {
  /** True when the same call may succeed later: back off and retry. */
  readonly isRetryable: boolean;
  readonly reason: DriverErrorReason;
  /** The driver's own code (SQLSTATE, Node errno code, SQLITE_* code), when it had one. */
  readonly code?: string;
}

const NODE_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const PG_SQLSTATES: ReadonlyMap<string, DriverErrorReason> = new Map([
  ['57P01', 'unavailable'], // admin_shutdown: the server is restarting or stopping
  ['57P02', 'unavailable'], // crash_shutdown
  ['57P03', 'unavailable'], // cannot_connect_now: starting up, shutting down, in recovery
  ['57P05', 'connection'], // idle_session_timeout
  ['53300', 'overloaded'], // too_many_connections
  ['53400', 'overloaded'], // configuration_limit_exceeded
  ['40001', 'conflict'], // serialization_failure
  ['40P01', 'conflict'], // deadlock_detected
  ['55P03', 'busy'], // lock_not_available (lock_timeout)
  ['57014', 'busy'], // query_canceled (statement_timeout)
]);

/** SQLSTATE 55000 is mostly a programming error; only when the server says it is not accepting work is it an outage. */
const NOT_ACCEPTING =
  /not (yet |currently )?accepting connections|shutting down|starting up|in recovery|recovery is in progress/i;

/** Messages `pg` raises without a code when a connection goes away or cannot be had in time. */
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /client has encountered a connection error and is not queryable/i,
  /the server closed the connection/i,
  /server closed the connection unexpectedly/i,
  /socket hang up/i,
];

const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
const SQLITE_TRANSIENT_IO = /^SQLITE_(IOERR|PROTOCOL)/;

const PERMANENT: DriverErrorClassification = { isRetryable: false, reason: 'permanent' };

/**
 * The one driver-error → retryable map for PostgreSQL (`pg`) and SQLite (`better-sqlite3`). Follows `cause`
 * chains and `AggregateError`s (Node reports a refused dual-stack connect as one), so a wrapped driver error
 * classifies like the original. Every retry/back-off decision in NimBus branches on this.
 */
export function classifyDriverError(error: unknown): DriverErrorClassification {
  return classify(error, 0);
}

/** Shorthand for `classifyDriverError(error).isRetryable`. */
export function isRetryableDriverError(error: unknown): boolean {
  return classifyDriverError(error).isRetryable;
}

function classify(error: unknown, depth: number): DriverErrorClassification {
  if (error === null || typeof error !== 'object' || depth > 8) return PERMANENT;
  const own = classifyOwn(error as { code?: unknown; message?: unknown });
  if (own.isRetryable) return own;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = classify(inner, depth + 1);
      if (found.isRetryable) return found;
    }
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) {
    const found = classify(cause, depth + 1);
    if (found.isRetryable) return found;
  }
  return own;
}

function classifyOwn(error: { code?: unknown; message?: unknown }): DriverErrorClassification {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  if (code !== undefined) {
    if (NODE_CONNECTION_CODES.has(code)) return { isRetryable: true, reason: 'connection', code };
    if (SQLITE_BUSY.test(code)) return { isRetryable: true, reason: 'busy', code };
    if (SQLITE_TRANSIENT_IO.test(code)) return { isRetryable: true, reason: 'unavailable', code };
    if (/^08[0-9A-Z]{3}$/.test(code)) return { isRetryable: true, reason: 'connection', code };
    const reason = PG_SQLSTATES.get(code);
    if (reason !== undefined) return { isRetryable: true, reason, code };
    if (code === '55000' && NOT_ACCEPTING.test(message))
      return { isRetryable: true, reason: 'unavailable', code };
  }
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) {
    return code === undefined
      ? { isRetryable: true, reason: 'connection' }
      : { isRetryable: true, reason: 'connection', code };
  }
  return code === undefined ? PERMANENT : { ...PERMANENT, code };
}

/** A one-line description for logs and readiness: `connection (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:5432`. */
export function describeDriverError(error: unknown): string {
  const { reason, code } = classifyDriverError(error);
  const message = error instanceof Error ? error.message : String(error);
  return `${reason}${code ? ` (${code})` : ''}: ${message || (error as Error)?.constructor?.name || 'unknown error'}`;
}
