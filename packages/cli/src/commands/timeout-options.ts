import type { Command } from 'commander';
import { usageError } from '../exit-codes.js';

/** How long one database statement of a long-running service may wait (PostgreSQL; SQLite: the lock wait). */
export interface DatabaseTimeouts {
  /** PostgreSQL `statement_timeout`: a statement running longer is cancelled. 0: the server's setting. */
  readonly statementTimeoutMs: number;
  /** PostgreSQL `lock_timeout` (SQLite: the busy timeout): a lock not granted in time is given up. */
  readonly lockTimeoutMs: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

export interface TimeoutCommandOptions {
  statementTimeout?: string;
  lockTimeout?: string;
}

/** `--statement-timeout` and `--lock-timeout` for `nimbus resolver`, `nimbus webapp` and `nimbus dev`. */
export function withTimeoutOptions(command: Command): Command {
  return command
    .option(
      '--statement-timeout <ms>',
      `cancel a store or transport statement that runs longer (PostgreSQL statement_timeout; 0: the server's setting; env NIMBUS_STATEMENT_TIMEOUT_MS, default ${DEFAULT_STATEMENT_TIMEOUT_MS})`,
    )
    .option(
      '--lock-timeout <ms>',
      `give up a store or transport statement that waits longer for a lock (PostgreSQL lock_timeout, SQLite busy timeout; env NIMBUS_LOCK_TIMEOUT_MS, default ${DEFAULT_LOCK_TIMEOUT_MS})`,
    );
}

export function timeoutsFrom(
  options: TimeoutCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): DatabaseTimeouts {
  return {
    statementTimeoutMs: milliseconds(
      '--statement-timeout',
      options.statementTimeout ?? env.NIMBUS_STATEMENT_TIMEOUT_MS,
      DEFAULT_STATEMENT_TIMEOUT_MS,
    ),
    lockTimeoutMs: milliseconds(
      '--lock-timeout',
      options.lockTimeout ?? env.NIMBUS_LOCK_TIMEOUT_MS,
      DEFAULT_LOCK_TIMEOUT_MS,
    ),
  };
}

function milliseconds(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0)
    throw usageError(`${option} must be a whole number of milliseconds >= 0; got '${raw}'.`);
  return ms;
}
