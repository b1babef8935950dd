import {
  type ApiTokenRecord,
  DuplicateEmailError,
  type EndpointRoleGrant,
  type IdentitySession,
  type IdentityStore,
  type IdentityUser,
  type NewIdentityUser,
  nextLoginAttempt,
  normalizeEmail,
} from './identity-store.js';
import type { GrantableRole, Role } from './roles.js';

/** In-process identity store for tests and single-process runs with the memory message store. */
export function createMemoryIdentityStore(): IdentityStore {
  const users = new Map<string, IdentityUser>();
  const endpointRoles = new Map<string, EndpointRoleGrant>();
  const sessions = new Map<string, IdentitySession>();
  const attempts = new Map<string, { attempts: number; windowStart: Date; lockedUntil: Date | null }>();
  const tokens = new Map<string, ApiTokenRecord>();

  const update = (userId: string, change: Partial<IdentityUser>) => {
    const user = users.get(userId);
    if (user) users.set(userId, { ...user, ...change });
  };
  const insert = (user: NewIdentityUser) => {
    const email = normalizeEmail(user.email);
    if ([...users.values()].some((u) => u.email === email)) throw new DuplicateEmailError(email);
    users.set(user.id, {
      ...user,
      email,
      updatedAt: user.createdAt,
      disabledAt: null,
      mustChangePassword: user.mustChangePassword ?? false,
    });
  };

  return {
    initialize: async () => undefined,
    countUsers: async () => users.size,
    createUser: async (user) => insert(user),
    createUserIfNoneExist: async (user) => {
      if (users.size > 0) return false;
      insert(user);
      return true;
    },
    findUserByEmail: async (email) => {
      const wanted = normalizeEmail(email);
      return [...users.values()].find((u) => u.email === wanted) ?? null;
    },
    findUserById: async (id) => users.get(id) ?? null,
    listUsers: async () => [...users.values()].sort((a, b) => a.email.localeCompare(b.email)),
    updatePassword: async (userId, passwordHash, at, mustChangePassword = false) =>
      update(userId, { passwordHash, updatedAt: at, mustChangePassword }),
    setSiteRole: async (userId, siteRole: Role, at) => update(userId, { siteRole, updatedAt: at }),
    setDisabled: async (userId, disabledAt, at) => update(userId, { disabledAt, updatedAt: at }),
    deleteUser: async (userId) => {
      if (!users.delete(userId)) return false;
      for (const [key, grant] of endpointRoles) if (grant.userId === userId) endpointRoles.delete(key);
      for (const [key, s] of sessions) if (s.userId === userId) sessions.delete(key);
      for (const [key, t] of tokens) if (t.userId === userId) tokens.delete(key);
      return true;
    },
    countLoginAttempt: async (key, now, policy) => {
      const next = nextLoginAttempt(attempts.get(key) ?? null, now, policy);
      attempts.set(key, next);
      return { attempts: next.attempts, lockedUntil: next.lockedUntil, lockStarted: next.lockStarted };
    },
    clearLoginAttempts: async (keys) => {
      for (const key of keys) attempts.delete(key);
    },
    setEndpointRole: async (userId, endpointId, role: GrantableRole | null) => {
      const key = `${userId}\u0000${endpointId}`;
      if (role === null) endpointRoles.delete(key);
      else endpointRoles.set(key, { userId, endpointId, role });
    },
    listEndpointRoles: async (userId) =>
      [...endpointRoles.values()]
        .filter((g) => g.userId === userId)
        .sort((a, b) => a.endpointId.localeCompare(b.endpointId)),
    createSession: async (session) => {
      sessions.set(session.tokenHash, session);
    },
    findSession: async (tokenHash, now) => {
      const session = sessions.get(tokenHash);
      return session && session.expiresAt.getTime() > now.getTime() ? session : null;
    },
    deleteSession: async (tokenHash) => {
      sessions.delete(tokenHash);
    },
    deleteSessionsOfUser: async (userId) => {
      for (const [key, s] of sessions) if (s.userId === userId) sessions.delete(key);
    },
    createApiToken: async (token) => {
      tokens.set(token.id, token);
    },
    findApiToken: async (tokenHash, now) =>
      [...tokens.values()].find(
        (t) => t.tokenHash === tokenHash && t.revokedAt === null && t.expiresAt.getTime() > now.getTime(),
      ) ?? null,
    listApiTokens: async (userId) =>
      [...tokens.values()]
        .filter((t) => t.userId === userId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)),
    revokeApiToken: async (userId, tokenId, at) => {
      const token = tokens.get(tokenId);
      if (!token || token.userId !== userId || token.revokedAt !== null) return false;
      tokens.set(tokenId, { ...token, revokedAt: at });
      return true;
    },
    close: async () => undefined,
  };
}
