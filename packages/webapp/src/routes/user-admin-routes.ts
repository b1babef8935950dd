import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { requireSession, revokeApiTokensOf } from '../auth/credential-guard.js';
import { hashPassword } from '../auth/password.js';
import { assertAcceptablePassword, MAX_PASSWORD_LENGTH } from '../auth/password-policy.js';
import type { Principal } from '../auth/principal.js';
import { conflict } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import type { IdentityUser } from '../identity/identity-store.js';
import { Role } from '../identity/roles.js';
import { UserDirectory, UserDto, UserParams } from './user-dto.js';

function notYourself(principal: Principal, user: IdentityUser, what: string): void {
  if (principal.user.id === user.id)
    throw conflict(`You cannot ${what} your own account; another site Owner has to.`);
}

/**
 * Account administration (site Owner): disable or enable, delete, and set a new password. Each writes one
 * audit row filed under `user:<id>` before it acts; none can remove the last enabled site Owner.
 */
export function userAdminRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { identityStore, auditLog, clock, streams } = deps;
  const users = new UserDirectory(identityStore);
  const endCredentials = async (userId: string) => {
    await identityStore.deleteSessionsOfUser(userId);
    streams.closeUser(userId);
  };

  return [
    defineRoute({
      method: 'PUT',
      url: '/api/users/:userId/disabled',
      tag: 'AccessControl',
      summary:
        'Disable (sign-in refused, sessions and tokens stop working) or enable an account (site Owner)',
      access: 'authenticated',
      params: UserParams,
      body: z.object({ disabled: z.boolean() }),
      response: UserDto,
      handler: async ({ params, body, principal }) => {
        const type = body.disabled ? MessageAuditType.DisableUser : MessageAuditType.EnableUser;
        const data = { userId: params.userId, disabled: body.disabled };
        await authorize(auditLog, principal!, Role.Owner, null, { type, data });
        const user = await users.load(params.userId);
        if (body.disabled) {
          notYourself(principal!, user, 'disable');
          await users.keepAnOwner(user, 'disabling them');
        }
        await auditLog.write({ type, principal: principal!, subject: `user:${user.id}`, data });
        const now = new Date(clock.now());
        await identityStore.setDisabled(user.id, body.disabled ? (user.disabledAt ?? now) : null, now);
        if (body.disabled) await endCredentials(user.id);
        return users.dto(await users.load(user.id));
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/users/:userId',
      tag: 'AccessControl',
      summary: 'Delete an account with its grants, sessions and API tokens (site Owner)',
      access: 'authenticated',
      params: UserParams,
      handler: async ({ params, principal }) => {
        const data = { userId: params.userId };
        await authorize(auditLog, principal!, Role.Owner, null, { type: MessageAuditType.DeleteUser, data });
        const user = await users.load(params.userId);
        notYourself(principal!, user, 'delete');
        await users.keepAnOwner(user, 'deleting them');
        await auditLog.write({
          type: MessageAuditType.DeleteUser,
          principal: principal!,
          subject: `user:${user.id}`,
          data: { ...data, email: user.email },
        });
        await identityStore.deleteUser(user.id);
        streams.closeUser(user.id);
        return undefined;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/users/:userId/reset-password',
      tag: 'AccessControl',
      summary: 'Set a new password for an account and end its sessions (site Owner)',
      access: 'authenticated',
      params: UserParams,
      body: z.object({
        newPassword: z.string().max(MAX_PASSWORD_LENGTH),
        revokeApiTokens: z
          .boolean()
          .default(true)
          .describe('also revoke every API token of the account (default true)'),
        mustChangePassword: z
          .boolean()
          .default(true)
          .describe('the user must replace this password at the next sign-in (default true: you know it)'),
      }),
      handler: async ({ params, body, principal }) => {
        requireSession(principal, 'Resetting a password');
        const { revokeApiTokens, mustChangePassword } = body;
        const data = { userId: params.userId, revokeApiTokens, mustChangePassword };
        await authorize(auditLog, principal!, Role.Owner, null, {
          type: MessageAuditType.ResetPassword,
          data,
        });
        const user = await users.load(params.userId);
        await assertAcceptablePassword(body.newPassword, 'body.newPassword', [
          user.email,
          user.displayName ?? '',
        ]);
        // The row names the account, never the password.
        await auditLog.write({
          type: MessageAuditType.ResetPassword,
          principal: principal!,
          subject: `user:${user.id}`,
          data: { ...data, email: user.email },
        });
        await identityStore.updatePassword(
          user.id,
          await hashPassword(body.newPassword),
          new Date(clock.now()),
          mustChangePassword,
        );
        if (body.revokeApiTokens)
          await revokeApiTokensOf(identityStore, streams, user.id, new Date(clock.now()));
        await endCredentials(user.id);
        return undefined;
      },
    }),
  ];
}
