import type { Middleware } from 'openapi-fetch';

/** The cookie and header names of a WebApp sign-in session (the document's `sessionCookie`/`csrfHeader`). */
export const SESSION_COOKIE = 'NimBus.Identity';
export const CSRF_COOKIE = 'NimBus.Csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** A personal API token (`nimbus_pat_…`), sent as `Authorization: Bearer`; no CSRF header needed. */
export interface TokenAuth {
  readonly type: 'token';
  readonly token: string;
}

/** A sign-in session held outside a browser (from `signIn`): its cookies, and the CSRF token for writes. */
export interface SessionAuth {
  readonly type: 'session';
  /** The `Cookie` header to send: `NimBus.Identity=…; NimBus.Csrf=…`. */
  readonly cookie: string;
  readonly csrfToken: string;
}

/**
 * A sign-in session in a browser page served by the WebApp: the browser sends the cookies, the client adds
 * the CSRF header (by default the `NimBus.Csrf` cookie read from `document.cookie`) to POST, PUT and DELETE.
 */
export interface BrowserSessionAuth {
  readonly type: 'browser';
  readonly csrfToken?: () => string;
}

export type NimbusAuth = TokenAuth | SessionAuth | BrowserSessionAuth;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF token a browser page can read: the value of the `NimBus.Csrf` cookie (empty when absent). */
export function csrfTokenFromDocumentCookie(): string {
  const cookies = (globalThis as { document?: { cookie?: string } }).document?.cookie ?? '';
  const match = cookies.split('; ').find((c) => c.startsWith(`${CSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : '';
}

/** The middleware that puts these credentials on every request. */
export function authMiddleware(auth: NimbusAuth): Middleware {
  return {
    onRequest({ request }) {
      const writes = !SAFE_METHODS.has(request.method);
      switch (auth.type) {
        case 'token':
          request.headers.set('authorization', `Bearer ${auth.token}`);
          break;
        case 'session':
          request.headers.set('cookie', auth.cookie);
          if (writes) request.headers.set(CSRF_HEADER, auth.csrfToken);
          break;
        case 'browser':
          if (writes) request.headers.set(CSRF_HEADER, (auth.csrfToken ?? csrfTokenFromDocumentCookie)());
          break;
      }
      return request;
    },
  };
}
