import { Backoff, RECONNECT_BACKOFF } from './backoff.js';
import { describeDriverError, isRetryableDriverError } from './driver-errors.js';
import { OutageLog, type OutageLogger } from './outage-log.js';

export interface StartWhenReachableOptions {
  /** Names what starts in the outage log, e.g. `NimBus resolver` or `Erp adapter host`. */
  readonly what: string;
  readonly logger: OutageLogger;
  /** The first failure is final (thrown), as if there were no wait. Default false. */
  readonly failFast?: boolean;
  /** Ends the wait (SIGTERM): `null` is returned. */
  readonly signal?: AbortSignal;
  /** Told after every failed attempt (`first` on the first of an outage): why it is not started yet. */
  readonly onWaiting?: (reason: string, first: boolean) => void;
  /** Which failures are an outage to wait out; default `isDatabaseOutage`. */
  readonly isOutage?: (error: unknown) => boolean;
}

/**
 * True when a failed start is a database outage worth waiting out: a retryable driver error (connection refused,
 * the server starting or shutting down, too many connections, a lock or statement timeout) or an error that says
 * `isRetryable: true` (a NimBus `TransportError` or `StorageProviderTransientError`), anywhere in the `cause`
 * chain. Refused credentials, a missing database, a schema that is behind or a bad option are not.
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (isRetryableDriverError(error)) return true;
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    if ((current as { isRetryable?: unknown }).isRetryable === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `start` (open a transport, a store, a whole service) until it succeeds, waiting out a database outage with
 * the back-off of a running component's reconnect (`RECONNECT_BACKOFF`) and one `OutageLog` (a line when the wait
 * starts, one when it ends). `start` must clean up after itself when it fails. Any other failure is thrown at once;
 * `null` when `signal` aborted the wait.
 */
export async function startWhenDatabaseAnswers<T>(
  start: () => Promise<T>,
  options: StartWhenReachableOptions,
): Promise<T | null> {
  const backoff = new Backoff(RECONNECT_BACKOFF);
  const outage = new OutageLog(options.logger, `${options.what} start`);
  const isOutage = options.isOutage ?? isDatabaseOutage;
  for (;;) {
    if (options.signal?.aborted) return null;
    try {
      const started = await start();
      outage.succeeded();
      return started;
    } catch (error) {
      if (options.failFast || !isOutage(error)) throw error;
      const first = !outage.inOutage;
      outage.failed(error);
      options.onWaiting?.(`waiting for the database (${describeDriverError(error)})`, first);
      await backoff.wait(options.signal);
    }
  }
}
