import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, ok } from '../api.js';
import { LabeledInput } from './LabeledInput.js';

/** Current and new password; on success the signed-in user is re-read (banners, the forced-change screen). */
export function ChangePasswordForm({ title, submitLabel }: { title: string; submitLabel: string }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await ok(api.POST('/account/change-password', { body: { currentPassword, newPassword } }));
      setResult('Password changed.');
      setCurrent('');
      setNew('');
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    } catch (e) {
      setResult(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <form className="card" onSubmit={submit} data-testid="change-password">
      <h2>{title}</h2>
      <LabeledInput
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={setCurrent}
      />
      <LabeledInput
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={setNew}
      />
      <button type="submit">{submitLabel}</button>
      {result && <p className="notice">{result}</p>}
    </form>
  );
}
