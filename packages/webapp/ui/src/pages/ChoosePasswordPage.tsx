import { api, type Me, ok } from '../api.js';
import { ChangePasswordForm } from '../components/ChangePasswordForm.js';

/**
 * Shown instead of every page while the signed-in user must replace a password that was set for them (the
 * initial admin password, or one an administrator set): the API refuses everything else until then.
 */
export function ChoosePasswordPage({ me }: { me: Me }) {
  const signOut = async () => {
    await ok(api.POST('/account/logout'));
    window.location.assign('/account/login');
  };
  return (
    <div className="login" data-testid="choose-password">
      <h1>Choose a new password</h1>
      <p>
        <b>{me.email}</b> signed in with a password that was set for this account
        {me.usesDefaultPassword ? ' (the documented default, which anyone who read the docs knows)' : ''}.
        Choose your own before you continue: at least 10 characters, hard to guess — a passphrase of unrelated
        words works well.
      </p>
      <ChangePasswordForm title="New password" submitLabel="Set new password" />
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </div>
  );
}
