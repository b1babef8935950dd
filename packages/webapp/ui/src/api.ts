import { loginUrl } from './return-path.js';
/** Fetch wrapper: JSON in and out, the CSRF header on writes, and a typed error carrying the server message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Field errors of a 400 (`{ path: 'body.eventJson.quantity', message }`). */
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

function csrfToken(): string {
  const match = document.cookie.split('; ').find((c) => c.startsWith('NimBus.Csrf='));
  return match ? decodeURIComponent(match.slice('NimBus.Csrf='.length)) : '';
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 && !path.startsWith('/account/')) {
    window.location.assign(loginUrl(`${window.location.pathname}${window.location.search}`));
  }
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok)
    throw new ApiError(
      response.status,
      data?.message ?? `${response.status} ${response.statusText}`,
      Array.isArray(data?.issues) ? data.issues : [],
    );
  return data as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);

export interface EndpointSummary {
  endpointId: string;
  status: string;
  pendingCount: number;
  deferredCount: number;
  failedCount: number;
  deadletterCount: number;
  unsupportedCount: number;
  eventTime: string | null;
}

export interface EventRow {
  endpointId: string;
  eventId: string;
  sessionId: string;
  status: string;
  eventTypeId: string | null;
  lastMessageId: string | null;
  updatedAt: string;
  enqueuedTimeUtc: string;
  resubmitCount?: number;
  errorContent: { errorText: string } | null;
  pendingSubStatus: string | null;
  handoffReason: string | null;
}

export interface Me {
  isAuthenticated: boolean;
  email: string | null;
  displayName: string | null;
  siteRole: string | null;
  /** Still the documented dev password: the UI shows a banner until it is changed. */
  usesDefaultPassword: boolean;
}
