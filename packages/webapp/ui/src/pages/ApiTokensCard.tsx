import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type Answer, ApiError, api, type Body, ok } from '../api.js';
import { LabeledInput } from '../components/LabeledInput.js';

type ApiToken = Answer<'/api/account/tokens'>[number];
type Role = NonNullable<Body<'/api/account/tokens'>['maxRole']>;

/** Personal API tokens: create (the secret is shown once), list and revoke. */
export function ApiTokensCard() {
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [name, setName] = useState('');
  const [maxRole, setMaxRole] = useState('');
  const [days, setDays] = useState('30');
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const reload = useCallback(async () => setTokens(await ok(api.GET('/api/account/tokens'))), []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      const created = await ok(
        api.POST('/api/account/tokens', {
          body: { name, maxRole: (maxRole || null) as Role | null, expiresInDays: Number(days) },
        }),
      );
      setSecret(created.token);
      setName('');
      await reload();
    } catch (e) {
      setMessage(e instanceof ApiError ? e.message : String(e));
    }
  };
  const revoke = async (id: string) => {
    await ok(api.DELETE('/api/account/tokens/{tokenId}', { params: { path: { tokenId: id } } }));
    await reload();
  };

  return (
    <form className="card" onSubmit={create}>
      <h2>API tokens</h2>
      <p>
        For scripts and CI: send <code>Authorization: Bearer &lt;token&gt;</code>. A token acts with your
        roles (or fewer) until it expires or you revoke it.
      </p>
      <LabeledInput
        label="Token name"
        name="tokenName"
        type="text"
        autoComplete="off"
        value={name}
        onChange={setName}
      />
      <label className="labeled-input">
        Highest role
        <select name="maxRole" value={maxRole} onChange={(e) => setMaxRole(e.target.value)}>
          <option value="">My roles</option>
          <option value="Reader">Reader</option>
          <option value="Contributor">Contributor</option>
          <option value="Owner">Owner</option>
        </select>
      </label>
      <LabeledInput
        label="Expires in days"
        name="expiresInDays"
        type="text"
        autoComplete="off"
        value={days}
        onChange={setDays}
      />
      <button type="submit">Create token</button>
      {message && <p className="error">{message}</p>}
      {secret && (
        <div className="notice">
          Copy this token now; it is not shown again:
          <div className="token-secret" data-testid="new-token">
            {secret}
          </div>
        </div>
      )}
      <table>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.maxRole ?? 'my roles'}</td>
              <td>
                {t.active ? `expires ${t.expiresAt.slice(0, 10)}` : t.revokedAt ? 'revoked' : 'expired'}
              </td>
              <td>
                {t.active && (
                  <button type="button" onClick={() => void revoke(t.id)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </form>
  );
}
