import type { Clock, Logger } from '@nimbus/core';
import { z } from 'zod';
import { HttpError, unauthorized } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { Authenticator } from './authenticator.js';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from './cookies.js';
import { hashPassword, passwordProblems, verifyPassword } from './password.js';
import type { Principal } from './principal.js';

export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MS = 15 * 60_000;

export interface AccountDeps {
  readonly identityStore: IdentityStore;
  readonly authenticator: Authenticator;
  readonly cookiePolicy: CookiePolicy;
  readonly clock: Clock;
  readonly logger: Logger;
}

export const CurrentUser = z.object({
  isAuthenticated: z.boolean(),
  id: z.string().nullable(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  siteRole: z.string().nullable(),
  endpointRoles: z.array(z.object({ endpointId: z.string(), role: z.string() })),
  csrfToken: z.string().nullable(),
});

export function describeUser(principal: Principal | null): z.input<typeof CurrentUser> {
  if (!principal) {
    return {
      isAuthenticated: false,
      id: null,
      email: null,
      displayName: null,
      siteRole: null,
      endpointRoles: [],
      csrfToken: null,
    };
  }
  return {
    isAuthenticated: true,
    id: principal.user.id,
    email: principal.user.email,
    displayName: principal.user.displayName,
    siteRole: principal.siteRole,
    endpointRoles: principal.endpointGrants(),
    csrfToken: principal.session.csrfToken,
  };
}

const Credentials = z.object({
  email: z.string().trim().min(1, 'email is required').max(320),
  password: z.string().min(1, 'password is required').max(200),
});

const PasswordChange = z.object({
  currentPassword: z.string().min(1, 'currentPassword is required').max(200),
  newPassword: z.string().min(1, 'newPassword is required').max(200),
});

/** Sign-in, sign-out, change password and "who am I". */
export function accountRoutes(deps: AccountDeps): AnyRouteSpec[] {
  const { identityStore, authenticator, cookiePolicy, clock, logger } = deps;
  const invalid = () => unauthorized('Invalid email or password.');

  return [
    defineRoute({
      method: 'POST',
      url: '/account/login',
      tag: 'Account',
      summary: 'Sign in with email and password; sets the session and CSRF cookies',
      access: 'anonymous',
      body: Credentials,
      response: CurrentUser,
      handler: async ({ body, request, reply }) => {
        const user = await identityStore.findUserByEmail(body.email);
        if (!user) {
          logger.info({ ip: request.ip }, 'Sign-in refused: unknown email');
          throw invalid();
        }
        const now = clock.now();
        if (user.lockedUntil && user.lockedUntil.getTime() > now) {
          throw new HttpError(
            401,
            'LockedOut',
            `Too many failed sign-ins; the account is locked until ${user.lockedUntil.toISOString()}.`,
          );
        }
        if (!(await verifyPassword(body.password, user.passwordHash))) {
          const failures = user.failedLogins + 1;
          const lockedUntil = failures >= MAX_FAILED_LOGINS ? new Date(now + LOCKOUT_MS) : null;
          await identityStore.recordLoginFailure(user.id, lockedUntil ? 0 : failures, lockedUntil);
          logger.info(
            { userId: user.id, failures, locked: lockedUntil !== null },
            'Sign-in refused: wrong password',
          );
          throw invalid();
        }
        if (user.failedLogins > 0 || user.lockedUntil) await identityStore.resetLoginFailures(user.id);
        const session = await authenticator.startSession(user);
        setSessionCookies(request, reply, cookiePolicy, session.token, session.csrfToken, session.expiresAt);
        logger.info({ userId: user.id }, 'Signed in');
        const principal = await authenticator.principalOfToken(session.token);
        return describeUser(principal);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/account/logout',
      tag: 'Account',
      summary: 'Sign out: ends the session and clears the cookies',
      access: 'authenticated',
      handler: async ({ request, reply }) => {
        await authenticator.endSession(request);
        clearSessionCookies(request, reply, cookiePolicy);
        return undefined;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/account/change-password',
      tag: 'Account',
      summary: 'Change the signed-in user’s password; other sessions of the user end',
      access: 'authenticated',
      body: PasswordChange,
      response: CurrentUser,
      handler: async ({ body, principal, request, reply }) => {
        const user = principal!.user;
        if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
          throw new HttpError(400, 'ValidationError', 'body.currentPassword: the current password is wrong', [
            { path: 'body.currentPassword', message: 'the current password is wrong' },
          ]);
        }
        const problems = passwordProblems(body.newPassword);
        if (problems.length > 0) {
          const message = `the new password needs ${problems.join(', ')}`;
          throw new HttpError(400, 'ValidationError', `body.newPassword: ${message}`, [
            { path: 'body.newPassword', message },
          ]);
        }
        await identityStore.updatePassword(
          user.id,
          await hashPassword(body.newPassword),
          new Date(clock.now()),
        );
        await identityStore.deleteSessionsOfUser(user.id);
        const refreshed = (await identityStore.findUserById(user.id))!;
        const session = await authenticator.startSession(refreshed);
        setSessionCookies(request, reply, cookiePolicy, session.token, session.csrfToken, session.expiresAt);
        logger.info({ userId: user.id }, 'Password changed');
        return describeUser(await authenticator.principalOfToken(session.token));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/me',
      tag: 'Account',
      summary: 'The signed-in user, roles and CSRF token (isAuthenticated false when signed out)',
      access: 'anonymous',
      response: CurrentUser,
      handler: async ({ principal }) => describeUser(principal),
    }),
  ];
}
