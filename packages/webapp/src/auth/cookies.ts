import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'NimBus.Identity';
export const CSRF_COOKIE = 'NimBus.Csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface CookiePolicy {
  /** `'auto'` marks cookies Secure when the request arrived over https. */
  readonly secure: boolean | 'auto';
}

function isSecure(request: FastifyRequest, policy: CookiePolicy): boolean {
  return policy.secure === 'auto' ? request.protocol === 'https' : policy.secure;
}

export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: CookiePolicy,
  token: string,
  csrfToken: string,
  expiresAt: Date,
): void {
  const secure = isSecure(request, policy);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: expiresAt,
  });
  // Readable by the UI's script on purpose: it echoes the value in the CSRF header (double submit).
  reply.setCookie(CSRF_COOKIE, csrfToken, {
    path: '/',
    httpOnly: false,
    sameSite: 'strict',
    secure,
    expires: expiresAt,
  });
}

export function clearSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: CookiePolicy,
): void {
  const secure = isSecure(request, policy);
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure });
  reply.clearCookie(CSRF_COOKIE, { path: '/', sameSite: 'strict', secure });
}
