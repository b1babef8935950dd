import type { Clock, Logger } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { AuditLog } from '../audit/audit-log.js';
import { HttpError } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import type { IdentityStore } from '../identity/identity-store.js';
import { credentialKey, type StreamRegistry } from '../live/stream-registry.js';
import type { Authenticator } from './authenticator.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from './cookies.js';
import { requireSession, revokeApiTokensOf } from './credential-guard.js';
import type { DefaultPasswordCheck } from './default-password.js';
import { isOidcAccount } from './oidc/oidc-users.js';
import { hashPassword, verifyPassword } from './password.js';
import { MAX_PASSWORD_LENGTH, passwordProblems } from './password-policy.js';
import type { Principal } from './principal.js';
import { type SignInDeps, signIn } from './sign-in.js';
import type { Limiter } from './sign-in-limits.js';

export interface AccountDeps {
  readonly identityStore: IdentityStore;
  readonly authenticator: Authenticator;
  readonly cookiePolicy: CookiePolicy;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly auditLog: AuditLog;
  readonly signIn: SignInDeps;
  readonly passwordCheck: Limiter;
  readonly streams: StreamRegistry;
  readonly defaultPassword: DefaultPasswordCheck;
  /** `false`: e-mail and password sign-in is off (OpenID Connect only). */
  readonly localAccounts: boolean;
}

export const CurrentUser = z.object({
  isAuthenticated: z.boolean(),
  id: z.string().nullable(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  siteRole: z.string().nullable(),
  endpointRoles: z.array(z.object({ endpointId: z.string(), role: z.string() })),
  csrfToken: z.string().nullable(),
  signInMethod: z
    .enum(['password', 'oidc'])
    .nullable()
    .describe('how this account signs in: its password here, or the OpenID Connect provider'),
  usesDefaultPassword: z
    .boolean()
    .describe('true while the signed-in user still has the documented dev password (the UI shows a banner)'),
  mustChangePassword: z
    .boolean()
    .describe(
      'true until the user has replaced a password set for them (the initial admin one, or one an administrator set): every other API call answers 403 PasswordChangeRequired',
    ),
});

export function describeUser(
  principal: Principal | null,
  usesDefaultPassword = false,
): z.input<typeof CurrentUser> {
  if (!principal) {
    return {
      isAuthenticated: false,
      id: null,
      email: null,
      displayName: null,
      siteRole: null,
      endpointRoles: [],
      csrfToken: null,
      signInMethod: null,
      usesDefaultPassword: false,
      mustChangePassword: false,
    };
  }
  return {
    isAuthenticated: true,
    id: principal.user.id,
    email: principal.user.email,
    displayName: principal.user.displayName,
    siteRole: principal.siteRole,
    endpointRoles: principal.endpointGrants(),
    csrfToken: principal.csrfToken,
    signInMethod: isOidcAccount(principal.user) ? 'oidc' : 'password',
    usesDefaultPassword,
    mustChangePassword: principal.user.mustChangePassword,
  };
}

const Credentials = z.object({
  email: z.string().trim().min(1, 'email is required').max(320),
  password: z.string().min(1, 'password is required').max(MAX_PASSWORD_LENGTH),
});

const PasswordChange = z.object({
  currentPassword: z.string().min(1, 'currentPassword is required').max(MAX_PASSWORD_LENGTH),
  newPassword: z.string().min(1, 'newPassword is required').max(MAX_PASSWORD_LENGTH),
  revokeApiTokens: z
    .boolean()
    .default(true)
    .describe('also revoke every API token of the account (default true: a changed password ends them all)'),
});

/** Sign-in, sign-out, change password and "who am I". */
export function accountRoutes(deps: AccountDeps): AnyRouteSpec[] {
  const { identityStore, authenticator, cookiePolicy, clock, logger, auditLog, streams } = deps;
  const describe = async (principal: Principal | null) =>
    describeUser(principal, principal ? await deps.defaultPassword.uses(principal.user) : false);

  return [
    defineRoute({
      method: 'POST',
      url: '/account/login',
      tag: 'Account',
      summary: 'Sign in with email and password; sets the session and CSRF cookies (rate-limited, locks out)',
      access: 'anonymous',
      body: Credentials,
      response: CurrentUser,
      handler: async ({ body, request, reply }) => {
        if (!deps.localAccounts)
          throw new HttpError(
            403,
            'LocalSignInOff',
            'Local accounts are switched off here; use single sign-on.',
          );
        const user = await signIn(deps.signIn, request, body.email, body.password);
        const session = await authenticator.startSession(user);
        setSessionCookies(request, reply, cookiePolicy, session.token, session.csrfToken, session.expiresAt);
        logger.info({ userId: user.id }, 'Signed in');
        return describe(await authenticator.principalOfToken(session.token));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/account/logout',
      tag: 'Account',
      summary: 'Sign out: ends the session, its live-update streams and clears the cookies',
      access: 'authenticated',
      beforePasswordChange: true,
      handler: async ({ request, reply, principal }) => {
        await auditLog.write({
          type: MessageAuditType.SignOut,
          principal,
          subject: `user:${principal!.user.id}`,
        });
        await authenticator.endSession(request);
        streams.closeCredential(credentialKey(principal!));
        clearSessionCookies(request, reply, cookiePolicy);
        return undefined;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/account/change-password',
      tag: 'Account',
      summary: 'Change the signed-in user’s password; other sessions and live streams of the user end',
      access: 'authenticated',
      beforePasswordChange: true,
      body: PasswordChange,
      response: CurrentUser,
      handler: async ({ body, principal, request, reply }) => {
        const user = requireSession(principal, 'Changing the password').user;
        if (isOidcAccount(user))
          throw new HttpError(
            400,
            'NoLocalPassword',
            'This account signs in with single sign-on; it has no password here.',
          );
        await deps.passwordCheck(request, user.id);
        if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
          await auditLog.write({
            type: MessageAuditType.ChangePassword,
            principal,
            subject: `user:${user.id}`,
            accessDenied: true,
            data: { reason: 'the current password is wrong' },
          });
          throw new HttpError(400, 'ValidationError', 'body.currentPassword: the current password is wrong', [
            { path: 'body.currentPassword', message: 'the current password is wrong' },
          ]);
        }
        const problems = await passwordProblems(body.newPassword, [user.email, user.displayName ?? '']);
        if (body.newPassword === body.currentPassword) problems.unshift('to differ from the current one');
        else if (deps.defaultPassword.is(body.newPassword))
          problems.unshift('to be other than the public default');
        if (problems.length > 0) {
          const message = `the new password needs ${problems.join(', ')}`;
          throw new HttpError(400, 'ValidationError', `body.newPassword: ${message}`, [
            { path: 'body.newPassword', message },
          ]);
        }
        await auditLog.write({
          type: MessageAuditType.ChangePassword,
          principal,
          subject: `user:${user.id}`,
          // forced: the user had to choose a new password (the initial one, or one an administrator set).
          data: { revokeApiTokens: body.revokeApiTokens, forced: user.mustChangePassword },
        });
        await identityStore.updatePassword(
          user.id,
          await hashPassword(body.newPassword),
          new Date(clock.now()),
        );
        await identityStore.deleteSessionsOfUser(user.id);
        if (body.revokeApiTokens)
          await revokeApiTokensOf(identityStore, streams, user.id, new Date(clock.now()));
        streams.closeUser(user.id);
        const refreshed = (await identityStore.findUserById(user.id))!;
        const session = await authenticator.startSession(refreshed);
        setSessionCookies(request, reply, cookiePolicy, session.token, session.csrfToken, session.expiresAt);
        logger.info({ userId: user.id }, 'Password changed');
        return describe(await authenticator.principalOfToken(session.token));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/me',
      tag: 'Account',
      summary: 'The signed-in user, roles and CSRF token (isAuthenticated false when signed out)',
      access: 'anonymous',
      response: CurrentUser,
      handler: async ({ principal }) => describe(principal),
    }),
  ];
}
