import type { ApiTokenRecord, IdentitySession, IdentityUser } from '../identity/identity-store.js';
import { atLeast, maxRole, minRole, Role } from '../identity/roles.js';

/**
 * How the caller proved who it is: a browser session cookie, an API token (`Authorization: Bearer`), or — for
 * a bulk job a WebApp resumes by itself after a restart — the job its user started (acting with the roles the
 * user holds now, capped as the starting credential was).
 */
export type Credential =
  | { readonly kind: 'session'; readonly session: IdentitySession }
  | { readonly kind: 'token'; readonly token: ApiTokenRecord }
  | { readonly kind: 'bulkJob'; readonly jobId: string; readonly maxRole: Role | null };

/** The signed-in caller of one request, with roles resolved once per request. */
export class Principal {
  readonly #endpointRoles: ReadonlyMap<string, { endpointId: string; role: Role }>;

  constructor(
    readonly user: IdentityUser,
    readonly credential: Credential,
    endpointRoles: ReadonlyMap<string, Role>,
  ) {
    this.#endpointRoles = new Map(
      [...endpointRoles].map(([endpointId, role]) => [endpointId.toLowerCase(), { endpointId, role }]),
    );
  }

  get name(): string {
    const name = this.user.displayName ?? this.user.email;
    return this.credential.kind === 'token' ? `${name} (token ${this.credential.token.name})` : name;
  }

  /** The session's CSRF token; `null` for API tokens, which need none (a browser never sends them itself). */
  get csrfToken(): string | null {
    return this.credential.kind === 'session' ? this.credential.session.csrfToken : null;
  }

  /** A token never acts above its own cap, whatever roles the user holds. */
  #capped(role: Role): Role {
    const { credential } = this;
    const cap =
      credential.kind === 'token'
        ? credential.token.maxRole
        : credential.kind === 'bulkJob'
          ? credential.maxRole
          : null;
    return cap ? minRole(role, cap) : role;
  }

  get siteRole(): Role {
    return this.#capped(this.user.siteRole);
  }

  /** Effective role on an endpoint: the higher of the site role and the endpoint grant (ids case-insensitive). */
  roleOn(endpointId?: string | null): Role {
    if (!endpointId) return this.siteRole;
    const grant = this.#endpointRoles.get(endpointId.toLowerCase())?.role ?? Role.None;
    return this.#capped(maxRole(this.user.siteRole, grant));
  }

  has(required: Role, endpointId?: string | null): boolean {
    return atLeast(this.roleOn(endpointId), required);
  }

  endpointGrants(): { endpointId: string; role: Role }[] {
    return [...this.#endpointRoles.values()].map((g) => ({ ...g, role: this.#capped(g.role) }));
  }
}
