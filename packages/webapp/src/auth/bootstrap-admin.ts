import { randomBytes } from 'node:crypto';
import { type Clock, type Logger, NimBusError, NimBusErrorCode, uuidv7 } from '@nimbus/core';
import type { IdentityStore } from '../identity/identity-store.js';
import { Role } from '../identity/roles.js';
import { hashPassword } from './password.js';
import { passwordProblems } from './password-policy.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@local';
export const DEFAULT_ADMIN_PASSWORD = 'Local!Admin123';

export interface BootstrapOptions {
  readonly identityStore: IdentityStore;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Reads NIMBUS_IDENTITY_ADMIN_EMAIL and NIMBUS_IDENTITY_ADMIN_PASSWORD. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Generate a random password instead of the well-known default when the env gives none. */
  readonly generatePassword?: boolean;
  /** `false` when local accounts are off: no admin is created (the provider's mapped Owners manage users). */
  readonly enabled?: boolean;
}

export type BootstrapResult =
  | { readonly created: false; readonly existingUsers: number }
  | {
      readonly created: true;
      readonly email: string;
      readonly passwordSource: 'default' | 'generated' | 'env';
      /**
       * A generated password, for the one sign-in banner that shows it (the CLI prints it once to stdout).
       * It is never written to a log line.
       */
      readonly generatedPassword?: string;
    };

function generatedPassword(): string {
  // Guarantees every character class the password policy asks for.
  return `Nb1${randomBytes(18).toString('base64url')}a`;
}

/**
 * One-shot: creates the site Owner only when the identity store has no user at all. No password is ever
 * logged: a generated one is returned (`generatedPassword`) for the sign-in banner only.
 */
export async function bootstrapAdmin(options: BootstrapOptions): Promise<BootstrapResult> {
  const { identityStore, logger, env } = options;
  if (options.enabled === false) return { created: false, existingUsers: await identityStore.countUsers() };
  const email = env.NIMBUS_IDENTITY_ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL;
  const envPassword = env.NIMBUS_IDENTITY_ADMIN_PASSWORD;
  const passwordSource = envPassword ? 'env' : options.generatePassword ? 'generated' : 'default';
  const password =
    envPassword || (passwordSource === 'generated' ? generatedPassword() : DEFAULT_ADMIN_PASSWORD);

  const existingUsers = await identityStore.countUsers();
  if (existingUsers > 0) {
    logger.info({ existingUsers }, 'Identity: users exist, bootstrap admin not created');
    return { created: false, existingUsers };
  }
  const problems = await passwordProblems(password);
  if (problems.length > 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `NIMBUS_IDENTITY_ADMIN_PASSWORD is too weak: it needs ${problems.join(', ')}.`,
    );
  }
  const created = await identityStore.createUserIfNoneExist({
    id: uuidv7(options.clock.now()),
    email,
    displayName: 'Administrator',
    passwordHash: await hashPassword(password),
    siteRole: Role.Owner,
    createdAt: new Date(options.clock.now()),
    // The public default and a generated password (printed to stdout) are replaced at the first sign-in.
    mustChangePassword: passwordSource !== 'env',
  });
  if (!created) {
    logger.info({}, 'Identity: another instance created the first user, bootstrap admin not created');
    return { created: false, existingUsers: await identityStore.countUsers() };
  }
  if (passwordSource === 'env') {
    logger.info(
      { email },
      `Identity: bootstrap admin ${email} created with the password from NIMBUS_IDENTITY_ADMIN_PASSWORD`,
    );
    return { created: true, email, passwordSource };
  }
  logger.warn(
    { email, passwordSource },
    `Identity: bootstrap admin ${email} created with a ${passwordSource === 'default' ? 'public default' : 'generated'} password (shown in the sign-in banner); change it after signing in`,
  );
  return passwordSource === 'generated'
    ? { created: true, email, passwordSource, generatedPassword: password }
    : { created: true, email, passwordSource };
}
