/** Exit codes scripts can rely on (documented in docs/cli.md). */
export const ExitCode = {
  /** The command did what was asked. */
  Ok: 0,
  /** The operation was attempted and failed (database unreachable, transport error, action refused…). */
  Failed: 1,
  /** Bad usage or configuration: unknown option, missing argument, invalid value, missing environment. */
  Usage: 2,
  /** `nimbus store verify`: the schema has unapplied migrations. */
  SchemaOutOfDate: 3,
  /** The named event, endpoint or event type does not exist. */
  NotFound: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI reports as one line on stderr, exiting with its code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Failed,
    /** The error it reports (kept so a start can tell a database outage from a configuration error). */
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.Usage);
}

export function notFound(message: string): CliError {
  return new CliError(message, ExitCode.NotFound);
}
