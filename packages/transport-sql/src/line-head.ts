import type { DialectContext, LeaseFence } from './dialect/dialect.js';

// Statement parts both dialects' receive (dialect/<name>/receive.ts) share: take the messages at the head of a
// leased line, hand back their bodies only when they fit, and ask whether another session waits.

/**
 * The RETURNING list of a receive. `storedBytes` is the dialect's SQL for a row's stored size, so that a body
 * larger than this consumer accepts is never loaded into the process: the receive returns it only when it fits
 * (parameter: the byte limit).
 */
export function receiveReturning(storedBytes: string): string {
  return `RETURNING input, session_id, seq, message_id, correlation_id, headers,
    CASE WHEN ${storedBytes} <= ? THEN body END AS body, ${storedBytes} AS stored_bytes, enqueued_at, delivery_count`;
}

/** Leading parameters of both dialects' receive statements: take up to `max` messages at the line's head. */
export function takeHeadParams(lease: LeaseFence, max: number): unknown[] {
  return [
    lease.token,
    lease.input,
    lease.sessionId,
    lease.input,
    lease.sessionId,
    lease.token,
    max,
    ...lease.params,
  ];
}

/**
 * `WHERE` clause over the sessions table: another session of the input (parameter) has messages and no live
 * lease, so it waits for a consumer. The lease this receive holds keeps its own session out. Served by the
 * partial `ready` index.
 */
export function anotherSessionWaits(context: DialectContext): string {
  return `WHERE input = ? AND message_count > 0 AND locked_until <= ${context.now}`;
}
