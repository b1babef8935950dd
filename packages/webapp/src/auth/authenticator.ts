import type { Clock, Logger } from '@nimbus/core';
import type { FastifyRequest } from 'fastify';
import type { IdentityStore, IdentityUser } from '../identity/identity-store.js';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './cookies.js';
import { Principal } from './principal.js';
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

/** Turns session cookies into principals and back. */
export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  async startSession(user: IdentityUser): Promise<NewSession> {
    const token = newToken();
    const csrfToken = newToken();
    const now = new Date(this.options.clock.now());
    const expiresAt = new Date(now.getTime() + this.options.sessionTtlMs);
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

  /** `null` for a missing, unknown or expired session cookie, or a user that no longer exists. */
  async principalOf(request: FastifyRequest): Promise<Principal | null> {
    const token = request.cookies[SESSION_COOKIE];
    return token ? this.principalOfToken(token) : null;
  }

  async principalOfToken(token: string): Promise<Principal | null> {
    const store = this.options.identityStore;
    const session = await store.findSession(hashToken(token), new Date(this.options.clock.now()));
    if (!session) return null;
    const user = await store.findUserById(session.userId);
    if (!user) return null;
    const grants = await store.listEndpointRoles(user.id);
    return new Principal(user, session, new Map(grants.map((g) => [g.endpointId, g.role])));
  }

  /**
   * Double-submit check for state-changing requests: the header must equal both the CSRF cookie and the
   * token bound to the session, so a cross-site form (which cannot set headers) is refused.
   */
  csrfProblem(request: FastifyRequest, principal: Principal): string | null {
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || header === '') return `missing ${CSRF_HEADER} header`;
    if (!cookie || !sameToken(header, cookie)) return `${CSRF_HEADER} header does not match the CSRF cookie`;
    if (!sameToken(header, principal.session.csrfToken))
      return `${CSRF_HEADER} header does not match the session`;
    return null;
  }
}
