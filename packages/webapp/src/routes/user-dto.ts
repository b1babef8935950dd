import { z } from 'zod';
import { conflict, notFound } from '../http/http-error.js';
import type { IdentityStore, IdentityUser } from '../identity/identity-store.js';
import { GRANTABLE_ROLES, Role } from '../identity/roles.js';

export const UserDto = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  siteRole: z.string(),
  endpointRoles: z.array(z.object({ endpointId: z.string(), role: z.string() })),
  createdAt: z.string(),
  /** Set while the account is disabled (it cannot sign in). */
  disabledAt: z.string().nullable(),
  mustChangePassword: z.boolean().describe('the user must choose a new password at the next sign-in'),
});

export const RoleName = z.enum([Role.None, ...GRANTABLE_ROLES]);
export const UserParams = z.object({ userId: z.string().min(1).max(64) });

/** Reads users for the administration routes and keeps the site from losing its last Owner. */
export class UserDirectory {
  constructor(private readonly identityStore: IdentityStore) {}

  /** `showsGrantOn` leaves out grants on endpoints the caller may not manage (default: all shown). */
  async dto(
    user: IdentityUser,
    showsGrantOn: (endpointId: string) => boolean = () => true,
  ): Promise<z.input<typeof UserDto>> {
    return {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      siteRole: user.siteRole,
      endpointRoles: (await this.identityStore.listEndpointRoles(user.id))
        .filter((g) => showsGrantOn(g.endpointId))
        .map((g) => ({ endpointId: g.endpointId, role: g.role })),
      createdAt: user.createdAt.toISOString(),
      disabledAt: user.disabledAt?.toISOString() ?? null,
      mustChangePassword: user.mustChangePassword,
    };
  }

  async load(userId: string): Promise<IdentityUser> {
    const user = await this.identityStore.findUserById(userId);
    if (!user) throw notFound(`User '${userId}' not found.`);
    return user;
  }

  /**
   * 409 when `user` is the only enabled site Owner and the change (`what`) would leave the site without
   * one: nobody could then manage users any more.
   */
  async keepAnOwner(user: IdentityUser, what: string): Promise<void> {
    if (user.siteRole !== Role.Owner || user.disabledAt !== null) return;
    const owners = (await this.identityStore.listUsers()).filter(
      (u) => u.siteRole === Role.Owner && u.disabledAt === null,
    );
    if (owners.length <= 1)
      throw conflict(
        `'${user.email}' is the last enabled site Owner; ${what} would leave nobody to manage users.`,
      );
  }
}
