import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, type Me, ok } from '../api.js';
import { LabeledInput } from '../components/LabeledInput.js';
import { ApiTokensCard } from './ApiTokensCard.js';

export function AccountPage({ me }: { me: Me }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await ok(api.POST('/account/change-password', { body: { currentPassword, newPassword } }));
      setResult('Password changed.');
      // The default-password banner comes from /api/auth/me.
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      setCurrent('');
      setNew('');
    } catch (e) {
      setResult(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <section>
      <h1>Account</h1>
      <p>
        Signed in as <b>{me.email}</b> (site role {me.siteRole}).
      </p>
      <form className="card" onSubmit={submit}>
        <h2>Change password</h2>
        <LabeledInput
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrent}
        />
        <LabeledInput
          label="New password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNew}
        />
        <button type="submit">Change password</button>
        {result && <p className="notice">{result}</p>}
      </form>
      <ApiTokensCard />
    </section>
  );
}
