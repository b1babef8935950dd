import { isDatabaseOutage as isOutageError } from '@nimbus/sql';
import { CliError, ExitCode } from '../exit-codes.js';

/**
 * `isDatabaseOutage` of `@nimbus/sql`, except for the CLI's own verdicts: a `CliError` with an exit code other than
 * 1 (schema out of date, bad usage) is final, whatever caused it.
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (error instanceof CliError && error.exitCode !== ExitCode.Failed) return false;
  return isOutageError(error);
}
