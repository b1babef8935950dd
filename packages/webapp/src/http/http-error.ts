export interface ValidationIssue {
  /** Where the problem is, e.g. `body.email` or `query.pageSize`. */
  readonly path: string;
  readonly message: string;
}

/** An error with an HTTP status the API turns into `{ error, message, issues? }`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: readonly ValidationIssue[] = [],
    /** Extra response headers, e.g. `retry-after` on a 429. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, issues: readonly ValidationIssue[] = []) =>
  new HttpError(400, 'BadRequest', message, issues);
export const unauthorized = (message = 'Sign-in required.') => new HttpError(401, 'Unauthorized', message);
export const passwordChangeRequired = () =>
  new HttpError(
    403,
    'PasswordChangeRequired',
    'Choose a new password first (POST /account/change-password): this password was set for you and must be replaced before anything else works.',
  );
export const forbidden = (message: string) => new HttpError(403, 'Forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'NotFound', message);
export const conflict = (message: string) => new HttpError(409, 'Conflict', message);
export const notSupported = (message: string) => new HttpError(501, 'NotSupported', message);
