import { type FormEvent, useState } from 'react';
import { api, type Body, ok } from '../../api.js';
import { LabeledInput } from '../../components/LabeledInput.js';

type SiteRole = NonNullable<Body<'/api/users'>['siteRole']>;

/** Creates a local user; the server checks the password's strength and names what is wrong. */
export function CreateUserForm({
  onDone,
}: {
  onDone: (what: string, call: () => Promise<unknown>) => Promise<void>;
}) {
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [siteRole, setSiteRole] = useState<SiteRole>('Reader');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await onDone(`${email} was created.`, async () => {
      await ok(
        api.POST('/api/users', {
          body: { email, displayName: displayName || null, password, siteRole },
        }),
      );
      setEmail('');
      setDisplayName('');
      setPassword('');
    });
  };
  return (
    <form className="card admin-form" onSubmit={submit} aria-label="create user">
      <h2>New user</h2>
      <LabeledInput
        label="E-mail"
        name="newEmail"
        type="text"
        autoComplete="off"
        value={email}
        onChange={setEmail}
      />
      <LabeledInput
        label="Display name"
        name="newDisplayName"
        type="text"
        autoComplete="off"
        value={displayName}
        onChange={setDisplayName}
      />
      <LabeledInput
        label="Password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
      <label>
        Site role
        <select name="newSiteRole" value={siteRole} onChange={(e) => setSiteRole(e.target.value as SiteRole)}>
          <option value="None">None (endpoint roles only)</option>
          <option value="Reader">Reader</option>
          <option value="Contributor">Contributor</option>
          <option value="Owner">Owner</option>
        </select>
      </label>
      <button type="submit">Create user</button>
    </form>
  );
}
