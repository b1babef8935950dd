import { randomBytes } from 'node:crypto';
import { type Clock, type Logger, uuidv7 } from '@nimbus/core';
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
}

export type BootstrapResult =
  | { readonly created: false; readonly existingUsers: number }
  | {
      readonly created: true;
      readonly email: string;
      readonly passwordSource: 'default' | 'generated' | 'env';
    };

function generatedPassword(): string {
  // Guarantees every character class the password policy asks for.
  return `Nb1${randomBytes(18).toString('base64url')}a`;
}

/**
 * One-shot: creates the site Owner only when the identity store has no user at all. The password is logged
 * when it is the public default or was generated here, never when it came from the environment.
 */
export async function bootstrapAdmin(options: BootstrapOptions): Promise<BootstrapResult> {
  const { identityStore, logger, env } = options;
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
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new Error(`NIMBUS_IDENTITY_ADMIN_PASSWORD is too weak: it needs ${problems.join(', ')}.`);
  }
  const created = await identityStore.createUserIfNoneExist({
    id: uuidv7(options.clock.now()),
    email,
    displayName: 'Administrator',
    passwordHash: await hashPassword(password),
    siteRole: Role.Owner,
    createdAt: new Date(options.clock.now()),
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
  } else {
    logger.warn(
      { email, password },
      `Identity: bootstrap admin created, sign in at /account/login as ${email} / ${password} and change the password`,
    );
  }
  return { created: true, email, passwordSource };
}
