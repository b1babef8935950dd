import type { Me } from '../api.js';
import { ChangePasswordForm } from '../components/ChangePasswordForm.js';
import { ApiTokensCard } from './ApiTokensCard.js';

export function AccountPage({ me }: { me: Me }) {
  return (
    <section>
      <h1>Account</h1>
      <p>
        Signed in as <b>{me.email}</b> (site role {me.siteRole}).
      </p>
      <ChangePasswordForm title="Change password" submitLabel="Change password" />
      <ApiTokensCard />
    </section>
  );
}
