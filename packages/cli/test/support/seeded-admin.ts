import { DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';

/**
 * What a test stack puts in the WebApp's environment so that the bootstrap admin is seeded through the
 * documented setting (NIMBUS_IDENTITY_ADMIN_PASSWORD) with the password the tests sign in with, and is not
 * asked to replace it at the first sign-in (the public default and a generated password are).
 */
export const SEEDED_ADMIN_ENV: Readonly<Record<string, string>> = {
  NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD,
};
