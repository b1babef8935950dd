import { type FormEvent, useState } from 'react';

/** The new password for another user's account, typed into a password field (never a prompt). */
export function ResetPasswordForm({
  email,
  onSubmit,
}: {
  email: string;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <input
        type="password"
        name="resetPassword"
        aria-label={`new password for ${email}`}
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit">Set password</button>
    </form>
  );
}
