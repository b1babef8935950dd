import { isRetryableError, type Logger } from '@nimbus/core';
import {
  Backoff,
  describeDriverError,
  isRetryableDriverError,
  OutageLog,
  RECONNECT_BACKOFF,
} from '@nimbus/sql';
import { CliError, ExitCode } from '../exit-codes.js';

export interface WaitForDatabaseOptions {
  /** Names the process in the outage log, e.g. `NimBus resolver`. */
  readonly what: string;
  readonly logger: Logger;
  /** `--fail-fast`: the first failure is final (the process exits), as before the wait existed. */
  readonly failFast: boolean;
  /** Aborted at SIGTERM/SIGINT: the wait ends and `null` is returned. */
  readonly signal: AbortSignal;
  /** Told after every failed attempt (`first` on the first of an outage): why the process is not ready. */
  readonly onWaiting: (reason: string, first: boolean) => void;
}

/**
 * True when a failed start is a database outage worth waiting out: a retryable driver error (connection refused,
 * server starting or shutting down, too many connections, a lock or statement timeout) or a retryable NimBus
 * error, anywhere in the `cause` chain. A schema that is behind, bad configuration or refused credentials are
 * not: waiting cannot fix them.
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (error instanceof CliError && error.exitCode !== ExitCode.Failed) return false;
  if (isRetryableDriverError(error)) return true;
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    if (isRetryableError(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `start` until it succeeds, waiting out a database outage with the same back-off and outage log as a
 * running component's reconnect (`RECONNECT_BACKOFF`, one line when the outage starts and one when it ends).
 * `start` must clean up after itself when it fails. Any other failure is thrown at once; `null` when the
 * process was told to stop while it waited.
 */
export async function startWhenDatabaseAnswers<T>(
  start: () => Promise<T>,
  options: WaitForDatabaseOptions,
): Promise<T | null> {
  const backoff = new Backoff(RECONNECT_BACKOFF);
  const outage = new OutageLog(options.logger, `${options.what} start`);
  for (;;) {
    if (options.signal.aborted) return null;
    try {
      const started = await start();
      outage.succeeded();
      return started;
    } catch (error) {
      if (options.failFast || !isDatabaseOutage(error)) throw error;
      const first = !outage.inOutage;
      outage.failed(error);
      options.onWaiting(`waiting for the database (${describeDriverError(error)})`, first);
      await backoff.wait(options.signal);
    }
  }
}
