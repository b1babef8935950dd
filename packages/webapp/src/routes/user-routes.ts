import { uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { hashPassword } from '../auth/password.js';
import { passwordProblems } from '../auth/password-policy.js';
import { conflict, HttpError, notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { DuplicateEmailError, type IdentityUser } from '../identity/identity-store.js';
import { GRANTABLE_ROLES, Role } from '../identity/roles.js';

const UserDto = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  siteRole: z.string(),
  endpointRoles: z.array(z.object({ endpointId: z.string(), role: z.string() })),
  createdAt: z.string(),
});

const RoleName = z.enum([Role.None, ...GRANTABLE_ROLES]);

/** Local user administration (site Owner). Every change writes one GrantRole/RevokeRole audit row. */
export function userRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { identityStore, auditLog, clock, catalog, streams } = deps;
  const dto = async (user: IdentityUser): Promise<z.input<typeof UserDto>> => ({
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    siteRole: user.siteRole,
    endpointRoles: (await identityStore.listEndpointRoles(user.id)).map((g) => ({
      endpointId: g.endpointId,
      role: g.role,
    })),
    createdAt: user.createdAt.toISOString(),
  });
  const load = async (userId: string) => {
    const user = await identityStore.findUserById(userId);
    if (!user) throw notFound(`User '${userId}' not found.`);
    return user;
  };

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
        return Promise.all((await identityStore.listUsers()).map(dto));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/users',
      tag: 'AccessControl',
      summary: 'Create a local user (site Owner)',
      access: 'authenticated',
      body: z.object({
        email: z.email().max(320),
        displayName: z.string().trim().max(200).nullable().optional(),
        password: z.string().max(200),
        siteRole: RoleName.default(Role.Reader),
      }),
      response: UserDto,
      successStatus: 201,
      handler: async ({ body, principal }) => {
        const data = { email: body.email, siteRole: body.siteRole };
        await authorize(auditLog, principal!, Role.Owner, null, { type: MessageAuditType.GrantRole, data });
        const problems = passwordProblems(body.password, [body.email, body.displayName ?? '']);
        if (problems.length > 0) {
          const message = `the password needs ${problems.join(', ')}`;
          throw new HttpError(400, 'ValidationError', `body.password: ${message}`, [
            { path: 'body.password', message },
          ]);
        }
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
      params: z.object({ userId: z.string().min(1).max(64) }),
      body: z.object({ role: RoleName }),
      response: UserDto,
      handler: async ({ params, body, principal }) => {
        const type = body.role === Role.None ? MessageAuditType.RevokeRole : MessageAuditType.GrantRole;
        const data = { scope: 'site', userId: params.userId, role: body.role };
        await authorize(auditLog, principal!, Role.Owner, null, { type, data });
        const user = await load(params.userId);
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
        return dto(await load(user.id));
      },
    }),
  ];
}
