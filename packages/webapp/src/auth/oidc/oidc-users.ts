import { type Clock, NimBusError, NimBusErrorCode, uuidv7 } from '@nimbus/core';
import type { IdentityStore, IdentityUser } from '../../identity/identity-store.js';
import type { MappedRoles } from './oidc-options.js';

/** The password hash of accounts that sign in with OIDC: it matches no password (local sign-in fails). */
export const OIDC_ACCOUNT_MARK = 'oidc';

export function isOidcAccount(user: IdentityUser): boolean {
  return user.passwordHash === OIDC_ACCOUNT_MARK;
}

/**
 * The account key of a provider's subject: `<sub>@oidc.<issuer host>`. Never the e-mail claim — that can be
 * anything the provider lets a user set, and must not take over a local account of the same address. The
 * colon-free, `oidc.`-prefixed domain cannot collide with a local account's e-mail by accident.
 */
export function oidcAccountKey(issuer: string, subject: string): string {
  return `${subject}@oidc.${new URL(issuer).host}`.toLowerCase();
}

/**
 * Finds or creates the account of the subject and sets its roles to what the provider says now: the site
 * role, and each endpoint grant (grants the mapping no longer gives are removed). The provider is the
 * source of truth at every sign-in; an administrator's change lasts until the next one.
 */
export async function provisionOidcUser(
  store: IdentityStore,
  clock: Clock,
  key: string,
  displayName: string | null,
  roles: MappedRoles,
): Promise<IdentityUser> {
  const now = new Date(clock.now());
  let user = await store.findUserByEmail(key);
  if (!user) {
    try {
      await store.createUser({
        id: uuidv7(clock.now()),
        email: key,
        displayName,
        passwordHash: OIDC_ACCOUNT_MARK,
        siteRole: roles.siteRole,
        createdAt: now,
      });
    } catch (error) {
      // A parallel first sign-in of the same subject created it: use that one.
      if (!(await store.findUserByEmail(key))) throw error;
    }
    user = (await store.findUserByEmail(key))!;
  }
  if (!isOidcAccount(user))
    throw new NimBusError(NimBusErrorCode.InvalidState, `account '${key}' exists and is not an OIDC account`);
  if (user.siteRole !== roles.siteRole) await store.setSiteRole(user.id, roles.siteRole, now);
  const current = await store.listEndpointRoles(user.id);
  for (const grant of current)
    if (!roles.endpointRoles.has(grant.endpointId))
      await store.setEndpointRole(user.id, grant.endpointId, null);
  for (const [endpointId, role] of roles.endpointRoles)
    if (current.find((g) => g.endpointId === endpointId)?.role !== role)
      await store.setEndpointRole(user.id, endpointId, role);
  return (await store.findUserById(user.id))!;
}
