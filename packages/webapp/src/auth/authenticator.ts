import type { Clock, Logger } from '@nimbus/core';
import type { FastifyRequest } from 'fastify';
import type { IdentityStore, IdentityUser } from '../identity/identity-store.js';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './cookies.js';
import { type Credential, Principal } from './principal.js';
import { hashToken, newToken, sameToken } from './tokens.js';

export interface AuthenticatorOptions {
  readonly identityStore: IdentityStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sessionTtlMs: number;
}

export interface NewSession {
  readonly token: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

/** The secret of `Authorization: Bearer <secret>`; `null` without such a header. */
function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/** Turns session cookies and API tokens into principals and back. */
export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  /** A new session of the user, for `ttlMs` (default: the configured session lifetime). */
  async startSession(user: IdentityUser, ttlMs = this.options.sessionTtlMs): Promise<NewSession> {
    const token = newToken();
    const csrfToken = newToken();
    const now = new Date(this.options.clock.now());
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.options.identityStore.createSession({
      tokenHash: hashToken(token),
      userId: user.id,
      csrfToken,
      createdAt: now,
      expiresAt,
    });
    return { token, csrfToken, expiresAt };
  }

  async endSession(request: FastifyRequest): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await this.options.identityStore.deleteSession(hashToken(token));
  }

  /**
   * `Authorization: Bearer <API token>` when present (a wrong one is refused, never ignored), else the
   * session cookie. `null` for a missing, unknown, revoked or expired credential, or a deleted or disabled user.
   */
  async principalOf(request: FastifyRequest): Promise<Principal | null> {
    const bearer = bearerToken(request.headers.authorization);
    if (bearer !== null) return this.principalOfApiToken(bearer);
    const token = request.cookies[SESSION_COOKIE];
    return token ? this.principalOfToken(token) : null;
  }

  async principalOfToken(token: string): Promise<Principal | null> {
    const store = this.options.identityStore;
    const session = await store.findSession(hashToken(token), new Date(this.options.clock.now()));
    return session ? this.#principal(session.userId, { kind: 'session', session }) : null;
  }

  async principalOfApiToken(secret: string): Promise<Principal | null> {
    const store = this.options.identityStore;
    const token = await store.findApiToken(hashToken(secret), new Date(this.options.clock.now()));
    return token ? this.#principal(token.userId, { kind: 'token', token }) : null;
  }

  async #principal(userId: string, credential: Credential): Promise<Principal | null> {
    const store = this.options.identityStore;
    const user = await store.findUserById(userId);
    // A disabled account's sessions and tokens stop working at once, not when they expire.
    if (!user || user.disabledAt !== null) return null;
    const grants = await store.listEndpointRoles(user.id);
    return new Principal(user, credential, new Map(grants.map((g) => [g.endpointId, g.role])));
  }

  /**
   * Double-submit check for state-changing requests: the header must equal both the CSRF cookie and the
   * token bound to the session, so a cross-site form (which cannot set headers) is refused.
   */
  csrfProblem(request: FastifyRequest, principal: Principal): string | null {
    // A bearer token is sent by a script on purpose, never attached by a browser: no cross-site risk.
    if (principal.csrfToken === null) return null;
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || header === '') return `missing ${CSRF_HEADER} header`;
    if (!cookie || !sameToken(header, cookie)) return `${CSRF_HEADER} header does not match the CSRF cookie`;
    if (!sameToken(header, principal.csrfToken)) return `${CSRF_HEADER} header does not match the session`;
    return null;
  }
}
