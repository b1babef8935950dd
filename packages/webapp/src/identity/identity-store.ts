import type { GrantableRole, Role } from './roles.js';

export interface IdentityUser {
  readonly id: string;
  /** Stored lower-cased and trimmed; unique. */
  readonly email: string;
  readonly displayName: string | null;
  readonly passwordHash: string;
  readonly siteRole: Role;
  readonly failedLogins: number;
  readonly lockedUntil: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewIdentityUser {
  readonly id: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly passwordHash: string;
  readonly siteRole: Role;
  readonly createdAt: Date;
}

export interface EndpointRoleGrant {
  readonly userId: string;
  readonly endpointId: string;
  readonly role: GrantableRole;
}

/** A signed-in browser session. The token itself is never stored, only its SHA-256 hash. */
export interface IdentitySession {
  readonly tokenHash: string;
  readonly userId: string;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/**
 * Where the WebApp keeps its local users, their roles and their sessions. Lives next to the message store
 * (same database for the SQL providers) but in its own `nimbus_identity_*` tables.
 */
export interface IdentityStore {
  /** Creates tables when missing; idempotent. */
  initialize(): Promise<void>;
  countUsers(): Promise<number>;
  /** Throws when the email is already taken. */
  createUser(user: NewIdentityUser): Promise<void>;
  /**
   * Creates the user only when no user exists at all; returns whether it did. Two concurrent calls create at
   * most one user.
   */
  createUserIfNoneExist(user: NewIdentityUser): Promise<boolean>;
  findUserByEmail(email: string): Promise<IdentityUser | null>;
  findUserById(id: string): Promise<IdentityUser | null>;
  listUsers(): Promise<IdentityUser[]>;
  updatePassword(userId: string, passwordHash: string, at: Date): Promise<void>;
  setSiteRole(userId: string, role: Role, at: Date): Promise<void>;
  /** Records a failed sign-in; `lockedUntil` set when the attempt locks the account. */
  recordLoginFailure(userId: string, failedLogins: number, lockedUntil: Date | null): Promise<void>;
  resetLoginFailures(userId: string): Promise<void>;
  /** `null` removes the grant. */
  setEndpointRole(userId: string, endpointId: string, role: GrantableRole | null): Promise<void>;
  listEndpointRoles(userId: string): Promise<EndpointRoleGrant[]>;
  createSession(session: IdentitySession): Promise<void>;
  /** `null` when missing or expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<IdentitySession | null>;
  deleteSession(tokenHash: string): Promise<void>;
  deleteSessionsOfUser(userId: string): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateEmailError extends Error {
  override readonly name = 'DuplicateEmailError';
  constructor(readonly email: string) {
    super(`A user with email '${email}' already exists.`);
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
