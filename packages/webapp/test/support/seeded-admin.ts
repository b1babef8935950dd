import { DEFAULT_ADMIN_PASSWORD } from '../../src/index.js';

/**
 * The `env` test stacks give `createWebApp`: the bootstrap admin is seeded through the documented setting
 * (NIMBUS_IDENTITY_ADMIN_PASSWORD), with the value the tests sign in with, so it is not asked to replace the
 * password at the first sign-in. The public default and a generated password are (password-change-required.test.ts).
 */
export const SEEDED_ADMIN_ENV: Readonly<Record<string, string>> = {
  NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD,
};
