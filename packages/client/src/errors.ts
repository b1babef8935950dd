import type { Middleware } from 'openapi-fetch';

/** One field problem of a 400 answer (`{ path: 'body.eventJson.quantity', message }`). */
export interface NimbusApiIssue {
  readonly path: string;
  readonly message: string;
}

/** The WebApp answered with an error status: its message, problem code (`error`) and field issues. */
export class NimbusApiError extends Error {
  override readonly name = 'NimbusApiError';
  constructor(
    readonly status: number,
    message: string,
    /** The problem code of the answer (`error`: `Forbidden`, `OutOfOrderNotAcknowledged`, …), when it has one. */
    readonly code: string | null = null,
    readonly issues: readonly NimbusApiIssue[] = [],
    /** The operation that was refused: `GET /api/endpoints` (method and path of the request). */
    readonly operation: string | null = null,
  ) {
    super(message);
  }
}

const requestMethods = new WeakMap<Response, string>();

/** Remembers which method an answer was for, so that its error can name the operation. */
export const operationMiddleware: Middleware = {
  onResponse({ request, response }) {
    requestMethods.set(response, request.method);
    return response;
  },
};

function operationOf(response: Response): string | null {
  if (!response.url) return null;
  const path = new URL(response.url).pathname;
  const method = requestMethods.get(response);
  return method ? `${method} ${path}` : path;
}

interface ErrorBody {
  readonly error?: unknown;
  readonly message?: unknown;
  readonly issues?: unknown;
}

function isIssue(value: unknown): value is NimbusApiIssue {
  const issue = value as Partial<NimbusApiIssue> | null;
  return typeof issue?.path === 'string' && typeof issue.message === 'string';
}

/** The error of an answer that is not 2xx, from its JSON body when it has one. */
export function apiErrorOf(response: Response, error: unknown): NimbusApiError {
  const body = (typeof error === 'object' && error !== null ? error : {}) as ErrorBody;
  const text = typeof error === 'string' && error.length > 0 ? error : null;
  const message =
    typeof body.message === 'string' ? body.message : (text ?? `${response.status} ${response.statusText}`);
  return new NimbusApiError(
    response.status,
    message,
    typeof body.error === 'string' ? body.error : null,
    Array.isArray(body.issues) ? body.issues.filter(isIssue) : [],
    operationOf(response),
  );
}

/**
 * The data of an answer, or a `NimbusApiError` when its status is not 2xx:
 * `const endpoints = await unwrap(client.GET('/api/endpoints'))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorOf(response, error);
  return data as T;
}
