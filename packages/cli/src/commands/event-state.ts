/** The retry state of a Failed row the retry policy will run again (a store row's Date or an API's ISO text). */
export interface RetryLike {
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly nextAttemptAt: Date | string;
}

/**
 * What the CLI calls an event's state: its stored status, except that a Failed row with a retry state is
 * `Retrying` (the retry policy runs it again; nobody has to act), as the WebApp shows it.
 */
export function eventState(status: string, retry: RetryLike | null | undefined): string {
  return retry ? 'Retrying' : status;
}

/** `Retrying (attempt 2/5, next at 2026-12-02T08:00:00.000Z)`, or the stored status as it is. */
export function eventStateText(status: string, retry: RetryLike | null | undefined): string {
  if (!retry) return status;
  const next = retry.nextAttemptAt instanceof Date ? retry.nextAttemptAt.toISOString() : retry.nextAttemptAt;
  return `Retrying (attempt ${retry.attempt}/${retry.maxAttempts}, next at ${next})`;
}

/** A row for `--json`: the row as stored or served, plus `state` (`Retrying` or the status). */
export function withState<T extends { readonly retry?: RetryLike | null | undefined }>(
  row: T,
  status: string,
): T & { readonly state: string } {
  return { ...row, state: eventState(status, row.retry) };
}
