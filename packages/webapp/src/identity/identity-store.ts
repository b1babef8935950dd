import type { GrantableRole, Role } from './roles.js';

export interface IdentityUser {
  readonly id: string;
  /** Stored lower-cased and trimmed; unique. */
  readonly email: string;
  readonly displayName: string | null;
  readonly passwordHash: string;
  readonly siteRole: Role;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Set while an administrator has disabled the account: it cannot sign in and its credentials stop working. */
  readonly disabledAt: Date | null;
  /**
   * Set for the bootstrap admin with the public default or a generated password, and by an administrator who
   * creates an account or resets its password: the user must choose a new password before anything else works.
   */
  readonly mustChangePassword: boolean;
}

export interface NewIdentityUser {
  readonly id: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly passwordHash: string;
  readonly siteRole: Role;
  readonly createdAt: Date;
  /** Default false. */
  readonly mustChangePassword?: boolean;
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

/** How many sign-in attempts one key (an address and account, or an account) may make before it locks. */
export interface LoginAttemptPolicy {
  readonly maxAttempts: number;
  /** Attempts older than this no longer count. */
  readonly windowMs: number;
  /** How long a lock lasts; it never extends itself (bounded). */
  readonly lockMs: number;
}

export interface LoginAttemptCount {
  /** Attempts in the current window, this one included. */
  readonly attempts: number;
  /** Set while the key is locked; the attempt that started the lock has `lockStarted`. */
  readonly lockedUntil: Date | null;
  readonly lockStarted: boolean;
}

/** An API token; only the SHA-256 hash of its secret is kept. */
export interface ApiTokenRecord {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly tokenHash: string;
  /** The highest role the token acts with (never above the user's own); null = the user's roles. */
  readonly maxRole: GrantableRole | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
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
  /** Sets the password; `mustChangePassword` (default false) says whether the user must replace it at sign-in. */
  updatePassword(userId: string, passwordHash: string, at: Date, mustChangePassword?: boolean): Promise<void>;
  setSiteRole(userId: string, role: Role, at: Date): Promise<void>;
  /** `null` enables the account again. */
  setDisabled(userId: string, disabledAt: Date | null, at: Date): Promise<void>;
  /** Deletes the user with its endpoint grants, sessions and API tokens; false when unknown. */
  deleteUser(userId: string): Promise<boolean>;
  /**
   * Counts one sign-in attempt for `key` atomically (parallel attempts each see their own count) and locks
   * the key once it has made more than `policy.maxAttempts` in the window. A locked key is not counted.
   */
  countLoginAttempt(key: string, now: Date, policy: LoginAttemptPolicy): Promise<LoginAttemptCount>;
  /** Forgets the attempts of these keys (after a successful sign-in). */
  clearLoginAttempts(keys: readonly string[]): Promise<void>;
  /** `null` removes the grant. */
  setEndpointRole(userId: string, endpointId: string, role: GrantableRole | null): Promise<void>;
  listEndpointRoles(userId: string): Promise<EndpointRoleGrant[]>;
  createSession(session: IdentitySession): Promise<void>;
  /** `null` when missing or expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<IdentitySession | null>;
  deleteSession(tokenHash: string): Promise<void>;
  deleteSessionsOfUser(userId: string): Promise<void>;
  createApiToken(token: ApiTokenRecord): Promise<void>;
  /** `null` when unknown, revoked or expired at `now`. */
  findApiToken(tokenHash: string, now: Date): Promise<ApiTokenRecord | null>;
  /** The user's tokens, newest first, revoked and expired ones included. */
  listApiTokens(userId: string): Promise<ApiTokenRecord[]>;
  /** Returns whether a token of that user was revoked now (false when unknown or already revoked). */
  revokeApiToken(userId: string, tokenId: string, at: Date): Promise<boolean>;
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

/** The lock state after one more attempt, from the state before it (shared by every store implementation). */
export function nextLoginAttempt(
  previous: { attempts: number; windowStart: Date; lockedUntil: Date | null } | null,
  now: Date,
  policy: LoginAttemptPolicy,
): { attempts: number; windowStart: Date; lockedUntil: Date | null; lockStarted: boolean } {
  if (previous?.lockedUntil && previous.lockedUntil.getTime() > now.getTime()) {
    return { ...previous, lockStarted: false };
  }
  const fresh =
    !previous ||
    previous.lockedUntil !== null ||
    previous.windowStart.getTime() < now.getTime() - policy.windowMs;
  const attempts = fresh ? 1 : previous.attempts + 1;
  const lock = attempts > policy.maxAttempts;
  return {
    attempts,
    windowStart: fresh ? now : previous.windowStart,
    lockedUntil: lock ? new Date(now.getTime() + policy.lockMs) : null,
    lockStarted: lock,
  };
}
