import { type FormEvent, useState } from 'react';
import { ApiError, api, ok } from '../api.js';
import { LabeledInput } from '../components/LabeledInput.js';
import { safeReturnPath } from '../return-path.js';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await ok(api.POST('/account/login', { body: { email, password } }));
      const returnUrl = new URLSearchParams(window.location.search).get('returnUrl');
      window.location.assign(safeReturnPath(returnUrl, window.location.origin));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Sign-in failed.');
    }
  };
  return (
    <div className="login">
      <form onSubmit={submit} className="card">
        <h1>Sign in to NimBus</h1>
        <LabeledInput
          label="Email"
          name="email"
          type="text"
          autoComplete="username"
          value={email}
          onChange={setEmail}
        />
        <LabeledInput
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        {error && <p className="error">{error}</p>}
        <button type="submit">Sign in</button>
      </form>
    </div>
  );
}
