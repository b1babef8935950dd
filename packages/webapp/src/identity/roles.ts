/** The role ladder, site-wide and per endpoint: None < Reader < Contributor < Owner. */
export const Role = {
  None: 'None',
  Reader: 'Reader',
  Contributor: 'Contributor',
  Owner: 'Owner',
} as const;

export type Role = (typeof Role)[keyof typeof Role];

/** Roles that can be granted (None is the absence of a grant). */
export const GRANTABLE_ROLES = [Role.Reader, Role.Contributor, Role.Owner] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

const RANK: Record<Role, number> = { None: 0, Reader: 1, Contributor: 2, Owner: 3 };

export function atLeast(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}

export function maxRole(a: Role, b: Role): Role {
  return RANK[a] >= RANK[b] ? a : b;
}

export function minRole(a: Role, b: Role): Role {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Accepts any casing on input ("reader", "OWNER"); returns null for unknown names. */
export function parseRole(value: string): Role | null {
  const match = Object.values(Role).find((r) => r.toLowerCase() === value.trim().toLowerCase());
  return match ?? null;
}
