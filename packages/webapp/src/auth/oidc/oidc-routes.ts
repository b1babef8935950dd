import type { Clock, Logger } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as client from 'openid-client';
import type { AuditLog } from '../../audit/audit-log.js';
import type { IdentityStore } from '../../identity/identity-store.js';
import type { Authenticator } from '../authenticator.js';
import { type CookiePolicy, setSessionCookies } from '../cookies.js';
import { discoverProvider, endSessionUrl, finishAuthorization, startAuthorization } from './oidc-client.js';
import { mapRoles, type OidcOptions } from './oidc-options.js';
import { oidcAccountKey, provisionOidcUser } from './oidc-users.js';

export interface OidcDeps {
  readonly options: OidcOptions;
  readonly identityStore: IdentityStore;
  readonly authenticator: Authenticator;
  readonly cookiePolicy: CookiePolicy;
  readonly auditLog: AuditLog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sessionTtlMs: number;
}

/** The transient cookie of one sign-in (PKCE verifier, state, nonce, where to return); 10 minutes. */
const FLOW_COOKIE = 'NimBus.Oidc';
const FLOW_PATH = '/account/oidc';
const FLOW_TTL_S = 600;
export const OIDC_LOGIN_PATH = '/account/oidc/login';
export const OIDC_SIGNED_OUT_PATH = '/account/oidc/signed-out';

/** A same-site path to return to after signing in, else `/` (no scheme, host, `//` or backslash). */
function returnPath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//')) return '/';
  return /^\/[\w\-.~!$&'()*+,;=:@%/?#]*$/.test(raw) ? raw : '/';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(reply: FastifyReply, status: number, title: string, text: string) {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(text)}</p><p><a href="/account/login">Back to sign-in</a></p></main></body></html>`;
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/**
 * Sign-in with an OpenID Connect provider: authorization code flow with PKCE, state and nonce (openid-client
 * checks the ID token: issuer, audience, signature, expiry, nonce). The user's role or group claims are
 * mapped to NimBus roles at every sign-in; a user none of whose values is mapped is refused. Each outcome
 * writes one audit row, as the local sign-in does.
 */
export function registerOidcRoutes(server: FastifyInstance, deps: OidcDeps): void {
  const { options, auditLog } = deps;
  let discovered: Promise<client.Configuration> | null = null;
  const provider = () => {
    discovered ??= discoverProvider(options).catch((error: Error) => {
      discovered = null; // the next sign-in tries again
      throw error;
    });
    return discovered;
  };
  const redirectUri = (request: FastifyRequest) =>
    options.redirectUrl ?? `${request.protocol}://${request.host}${FLOW_PATH}/callback`;
  const secure = (request: FastifyRequest) =>
    deps.cookiePolicy.secure === 'auto' ? request.protocol === 'https' : deps.cookiePolicy.secure;
  const refuse = async (request: FastifyRequest, who: string, reason: string) =>
    auditLog.write({
      type: MessageAuditType.SignInFailed,
      auditorName: who,
      subject: `account:${who}`,
      accessDenied: true,
      data: { address: request.ip, via: 'oidc', reason },
    });

  server.get(OIDC_LOGIN_PATH, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    let start: Awaited<ReturnType<typeof startAuthorization>>;
    try {
      start = await startAuthorization(await provider(), redirectUri(request), options.scopes ?? SCOPES);
    } catch (error) {
      deps.logger.error({ err: (error as Error).message }, 'OIDC provider discovery failed');
      return page(reply, 503, 'Sign-in unavailable', 'The sign-in provider cannot be reached; try again.');
    }
    const flow = { v: start.verifier, s: start.state, n: start.nonce, r: returnPath(query.returnUrl) };
    // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation.
    reply.setCookie(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
      path: FLOW_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(request),
      maxAge: FLOW_TTL_S,
    });
    return reply.redirect(start.url.href, 302);
  });

  server.get(`${FLOW_PATH}/callback`, async (request, reply) => {
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_PATH });
    const flow = readFlow(request.cookies[FLOW_COOKIE]);
    if (!flow) {
      await refuse(request, 'anonymous', 'no sign-in in progress (expired, or started elsewhere)');
      return page(reply, 400, 'Sign-in failed', 'The sign-in expired or was started elsewhere; start again.');
    }
    let config: client.Configuration;
    try {
      config = await provider();
    } catch (error) {
      deps.logger.error({ err: (error as Error).message }, 'OIDC provider discovery failed');
      return page(reply, 503, 'Sign-in unavailable', 'The sign-in provider cannot be reached; try again.');
    }
    const callbackUrl = new URL(redirectUri(request));
    callbackUrl.search = new URL(request.url, 'http://x').search;
    let claims: Record<string, unknown>;
    try {
      claims = await finishAuthorization(config, callbackUrl, {
        verifier: flow.v,
        state: flow.s,
        nonce: flow.n,
      });
    } catch (error) {
      const reason = (error as Error).message;
      await refuse(request, 'anonymous', `the provider's answer was refused: ${reason}`);
      return page(reply, 400, 'Sign-in failed', `The sign-in provider's answer was refused: ${reason}`);
    }
    const subject = String(claims.sub);
    const key = oidcAccountKey(options.issuer, subject);
    const roles = mapRoles(options.roleMapping, claims);
    const shown = String(claims.preferred_username ?? claims.email ?? subject);
    if (!roles) {
      await refuse(request, key, `${shown} has no group or app role mapped to a NimBus role`);
      return page(
        reply,
        403,
        'No access to NimBus',
        `You signed in as ${shown}, but none of your groups or app roles gives access to NimBus. Ask an administrator.`,
      );
    }
    const name = typeof claims.name === 'string' ? `${claims.name} (${shown})` : shown;
    const user = await provisionOidcUser(deps.identityStore, deps.clock, key, name, roles);
    if (user.disabledAt !== null) {
      await refuse(request, key, 'account disabled');
      return page(
        reply,
        403,
        'Account disabled',
        'This account is disabled in NimBus; ask an administrator.',
      );
    }
    await auditLog.write({
      type: MessageAuditType.SignIn,
      auditorName: key,
      subject: `account:${key}`,
      data: {
        address: request.ip,
        via: 'oidc',
        issuer: options.issuer,
        siteRole: roles.siteRole,
        endpointRoles: Object.fromEntries(roles.endpointRoles),
        matched: roles.matched,
      },
    });
    const session = await deps.authenticator.startSession(user, options.sessionTtlMs ?? deps.sessionTtlMs);
    setSessionCookies(request, reply, deps.cookiePolicy, session.token, session.csrfToken, session.expiresAt);
    deps.logger.info({ userId: user.id, via: 'oidc' }, 'Signed in');
    return reply.redirect(flow.r, 302);
  });

  // After the local sign-out (POST /account/logout), the UI comes here to end the provider's session too.
  server.get(OIDC_SIGNED_OUT_PATH, async (request, reply) => {
    const back = `${request.protocol}://${request.host}/account/login`;
    const target = await provider().then(
      (config) => endSessionUrl(config, back),
      () => null,
    );
    return reply.redirect(target?.href ?? '/account/login', 302);
  });
}

const SCOPES = ['openid', 'profile', 'email'];

function readFlow(raw: string | undefined): { v: string; s: string; n: string; r: string } | null {
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    const ok = ['v', 's', 'n', 'r'].every((k) => typeof flow[k] === 'string');
    if (!ok) return null;
    return { v: String(flow.v), s: String(flow.s), n: String(flow.n), r: returnPath(flow.r) };
  } catch {
    return null;
  }
}
