import { uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { hashPassword } from '../auth/password.js';
import { assertAcceptablePassword } from '../auth/password-policy.js';
import { conflict } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { DuplicateEmailError, type IdentityUser } from '../identity/identity-store.js';
import { Role } from '../identity/roles.js';
import { RoleName, UserDirectory, UserDto, UserParams } from './user-dto.js';

/**
 * A sign-in name in e-mail form: `name@domain`, where the domain may be one label (`reader@local`, like the
 * bootstrap `admin@local`): accounts are local, nothing is mailed to them.
 */
const AccountEmail = z
  .string()
  .trim()
  .max(320)
  .regex(
    /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/,
    'must be an e-mail address such as ada@example.com or reader@local',
  );

/** Local user administration (site Owner). Every change writes one GrantRole/RevokeRole audit row. */
export function userRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { identityStore, auditLog, clock, catalog, streams } = deps;
  const users = new UserDirectory(identityStore);
  const dto = (user: IdentityUser, showsGrantOn?: (endpointId: string) => boolean) =>
    users.dto(user, showsGrantOn);
  const load = (userId: string) => users.load(userId);

  return [
    defineRoute({
      method: 'GET',
      url: '/api/users',
      tag: 'AccessControl',
      summary: 'Local users and their roles (site Owner)',
      access: 'authenticated',
      response: z.array(UserDto),
      handler: async ({ principal }) => {
        await authorize(auditLog, principal!, Role.Owner, null);
        return Promise.all((await identityStore.listUsers()).map((u) => dto(u)));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/users',
      tag: 'AccessControl',
      summary: 'Create a local user (site Owner)',
      access: 'authenticated',
      body: z.object({
        email: AccountEmail,
        displayName: z.string().trim().max(200).nullable().optional(),
        password: z.string().max(200),
        siteRole: RoleName.default(Role.Reader),
        mustChangePassword: z
          .boolean()
          .default(false)
          .describe('the user must replace this password at the first sign-in before anything else works'),
      }),
      response: UserDto,
      successStatus: 201,
      handler: async ({ body, principal }) => {
        const data = {
          email: body.email,
          siteRole: body.siteRole,
          mustChangePassword: body.mustChangePassword,
        };
        await authorize(auditLog, principal!, Role.Owner, null, { type: MessageAuditType.GrantRole, data });
        await assertAcceptablePassword(body.password, 'body.password', [body.email, body.displayName ?? '']);
        const id = uuidv7(clock.now());
        await auditLog.write({
          type: MessageAuditType.GrantRole,
          principal: principal!,
          subject: `user:${id}`,
          data: { scope: 'site', ...data },
        });
        try {
          await identityStore.createUser({
            id,
            email: body.email,
            displayName: body.displayName ?? null,
            passwordHash: await hashPassword(body.password),
            siteRole: body.siteRole,
            createdAt: new Date(clock.now()),
            mustChangePassword: body.mustChangePassword,
          });
        } catch (error) {
          if (error instanceof DuplicateEmailError) throw conflict(error.message);
          throw error;
        }
        return dto(await load(id));
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/users/:userId/site-role',
      tag: 'AccessControl',
      summary: 'Set a user’s site role (site Owner)',
      access: 'authenticated',
      params: UserParams,
      body: z.object({ role: RoleName }),
      response: UserDto,
      handler: async ({ params, body, principal }) => {
        const type = body.role === Role.None ? MessageAuditType.RevokeRole : MessageAuditType.GrantRole;
        const data = { scope: 'site', userId: params.userId, role: body.role };
        await authorize(auditLog, principal!, Role.Owner, null, { type, data });
        const user = await load(params.userId);
        if (body.role !== Role.Owner) await users.keepAnOwner(user, `making them ${body.role}`);
        await auditLog.write({ type, principal: principal!, subject: `user:${user.id}`, data });
        await identityStore.setSiteRole(user.id, body.role, new Date(clock.now()));
        // Streams opened with the old rights end; the browser reconnects with the new ones.
        streams.closeUser(user.id);
        return dto(await load(user.id));
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/users/:userId/endpoint-roles/:endpointId',
      tag: 'AccessControl',
      summary: 'Grant (or with role None revoke) a user’s role on one endpoint (endpoint Owner)',
      access: 'authenticated',
      params: z.object({ userId: z.string().min(1).max(64), endpointId: z.string().min(1).max(200) }),
      body: z.object({ role: RoleName }),
      response: UserDto,
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        const type = body.role === Role.None ? MessageAuditType.RevokeRole : MessageAuditType.GrantRole;
        const data = { scope: endpointId, userId: params.userId, role: body.role };
        await authorize(auditLog, principal!, Role.Owner, endpointId, { type, data });
        const user = await load(params.userId);
        await auditLog.write({ type, principal: principal!, subject: `user:${user.id}`, endpointId, data });
        await identityStore.setEndpointRole(user.id, endpointId, body.role === Role.None ? null : body.role);
        streams.closeUser(user.id);
        // An endpoint Owner sees the grants on the endpoints they own, not the user's other ones.
        return dto(await load(user.id), (id) => principal!.has(Role.Owner, id));
      },
    }),
  ];
}
