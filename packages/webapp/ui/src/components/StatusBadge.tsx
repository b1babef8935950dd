/** While a Failed event is retrying (the retry policy runs it again), the API sets `retry`. */
export interface RetryInfo {
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly nextAttemptAt: string;
}

export function retryText(retry: RetryInfo): string {
  return `attempt ${retry.attempt} of ${retry.maxAttempts}, next attempt at ${new Date(retry.nextAttemptAt).toLocaleString()}`;
}

export function StatusBadge({ status, retry }: { status: string; retry?: RetryInfo | null | undefined }) {
  if (retry) {
    return (
      <span className="badge badge-retrying" data-status="Retrying" title={retryText(retry)}>
        Retrying {retry.attempt}/{retry.maxAttempts}
      </span>
    );
  }
  return (
    <span className={`badge badge-${status.toLowerCase()}`} data-status={status}>
      {status}
    </span>
  );
}
