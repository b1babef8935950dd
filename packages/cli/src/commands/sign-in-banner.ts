import type { BootstrapResult } from '@nimbus/webapp';
import { DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';

/** Tells the user how to sign in; the password is printed only when it is the public default. */
export function printSignIn(print: (line: string) => void, bootstrap: BootstrapResult | null): void {
  if (!bootstrap) return;
  if (!bootstrap.created) {
    print('Sign in with an existing account (the first run created admin@local).');
    return;
  }
  if (bootstrap.passwordSource === 'default') {
    print(
      `Sign in as ${bootstrap.email} with password ${DEFAULT_ADMIN_PASSWORD} (you choose a new one at the first sign-in).`,
    );
  } else if (bootstrap.passwordSource === 'env') {
    print(`Sign in as ${bootstrap.email} with the password from NIMBUS_IDENTITY_ADMIN_PASSWORD.`);
  } else {
    // The one place the generated password appears: stdout, once, never a log line.
    print(
      `Sign in as ${bootstrap.email} with password ${bootstrap.generatedPassword ?? '(not available)'} (generated; you choose a new one at the first sign-in).`,
    );
  }
}
