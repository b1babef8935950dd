import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, ok } from '../api.js';
import { LabeledInput } from '../components/LabeledInput.js';
import { safeReturnPath } from '../return-path.js';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const modes = useQuery({
    queryKey: ['sign-in-modes'],
    queryFn: () => ok(api.GET('/api/auth/sign-in-modes')),
  });
  const returnUrl = new URLSearchParams(window.location.search).get('returnUrl');
  const oidc = modes.data?.oidc;
  const local = modes.data?.localAccounts ?? true;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await ok(api.POST('/account/login', { body: { email, password } }));
      window.location.assign(safeReturnPath(returnUrl, window.location.origin));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Sign-in failed.');
    }
  };
  return (
    <div className="login">
      {oidc && (
        <div className="card">
          <h1>Sign in to NimBus</h1>
          <a
            className="button"
            data-testid="oidc-sign-in"
            href={`${oidc.loginUrl}?returnUrl=${encodeURIComponent(safeReturnPath(returnUrl, window.location.origin))}`}
          >
            {oidc.label}
          </a>
        </div>
      )}
      {local && (
        <form onSubmit={submit} className="card">
          <h1>{oidc ? 'Or with a local account' : 'Sign in to NimBus'}</h1>
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
      )}
    </div>
  );
}
