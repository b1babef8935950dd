import { type FormEvent, useState } from 'react';
import { ApiError, type Me, post } from '../api.js';

export function AccountPage({ me }: { me: Me }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await post('/account/change-password', { currentPassword, newPassword });
      setResult('Password changed.');
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
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
          />
        </label>
        <button type="submit">Change password</button>
        {result && <p className="notice">{result}</p>}
      </form>
    </section>
  );
}
