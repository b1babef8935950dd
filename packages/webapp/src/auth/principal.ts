import type { IdentitySession, IdentityUser } from '../identity/identity-store.js';
import { atLeast, maxRole, Role } from '../identity/roles.js';

/** The signed-in caller of one request, with roles resolved once per request. */
export class Principal {
  readonly #endpointRoles: ReadonlyMap<string, { endpointId: string; role: Role }>;

  constructor(
    readonly user: IdentityUser,
    readonly session: IdentitySession,
    endpointRoles: ReadonlyMap<string, Role>,
  ) {
    this.#endpointRoles = new Map(
      [...endpointRoles].map(([endpointId, role]) => [endpointId.toLowerCase(), { endpointId, role }]),
    );
  }

  get name(): string {
    return this.user.displayName ?? this.user.email;
  }

  get siteRole(): Role {
    return this.user.siteRole;
  }

  /** Effective role on an endpoint: the higher of the site role and the endpoint grant (ids case-insensitive). */
  roleOn(endpointId?: string | null): Role {
    if (!endpointId) return this.user.siteRole;
    return maxRole(this.user.siteRole, this.#endpointRoles.get(endpointId.toLowerCase())?.role ?? Role.None);
  }

  has(required: Role, endpointId?: string | null): boolean {
    return atLeast(this.roleOn(endpointId), required);
  }

  endpointGrants(): { endpointId: string; role: Role }[] {
    return [...this.#endpointRoles.values()].map((g) => ({ ...g }));
  }
}
