import { DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';

/**
 * What a test stack puts in the WebApp's environment so that the bootstrap admin is seeded through the
 * documented setting (NIMBUS_IDENTITY_ADMIN_PASSWORD) with the password the tests sign in with, and is not
 * asked to replace it at the first sign-in (the public default and a generated password are).
 */
export const SEEDED_ADMIN_ENV: Readonly<Record<string, string>> = {
  NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD,
};

/**
 * Signs in over HTTP; when the account must first replace its password (the public default, a generated
 * one), chooses `next` and returns the cookies of the new session.
 */
export async function signInChoosingPassword(
  baseUrl: string,
  credentials: { readonly email: string; readonly password: string },
  next = 'Test!Chosen-Passphrase-42',
): Promise<string> {
  const cookiesOf = (answer: Response) =>
    answer.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  const login = await fetch(`${baseUrl}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const me = (await login.json()) as { mustChangePassword?: boolean };
  const cookie = cookiesOf(login);
  if (!me.mustChangePassword) return cookie;
  const changed = await fetch(`${baseUrl}/account/change-password`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie,
      'x-csrf-token': /NimBus\.Csrf=([^;]+)/.exec(cookie)?.[1] ?? '',
    },
    body: JSON.stringify({ currentPassword: credentials.password, newPassword: next }),
  });
  if (changed.status !== 200)
    throw new Error(`password change failed: ${changed.status} ${await changed.text()}`);
  return cookiesOf(changed);
}
