import { Link } from './Link.js';

export interface ErrorContent {
  errorText: string;
  errorType: string | null;
  exceptionStackTrace: string | null;
}

/** Why the event failed: the error type, its message, the stack trace, and the group of events with the same cause. */
export function ErrorDetails({ error, signature }: { error: ErrorContent; signature: string | null }) {
  return (
    <div className="card error-block" data-testid="error-details">
      <h2>Error</h2>
      <p>
        <b data-testid="error-type">{error.errorType ?? 'Error'}</b>
      </p>
      <pre data-testid="error-text">{error.errorText}</pre>
      {error.exceptionStackTrace && (
        <details>
          <summary>Stack trace</summary>
          <pre className="code" data-testid="stack-trace">
            {error.exceptionStackTrace}
          </pre>
        </details>
      )}
      {signature && (
        <p>
          <Link to={`/failure-groups?group=${encodeURIComponent(signature)}`}>
            Events with the same cause
          </Link>
        </p>
      )}
    </div>
  );
}
