import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Answer, api, type Body, ok } from '../../api.js';

type User = Answer<'/api/users'>[number];
type Role = Body<'/api/users/{userId}/endpoint-roles/{endpointId}', 'put'>['role'];

/** Grants a user a role on one endpoint, or with None takes the grant away. */
export function EndpointRoleForm({
  users,
  onDone,
}: {
  users: readonly User[];
  onDone: (what: string, call: () => Promise<unknown>) => Promise<void>;
}) {
  const endpoints = useQuery({ queryKey: ['endpoints'], queryFn: () => ok(api.GET('/api/endpoints')) });
  const [userId, setUserId] = useState('');
  const [endpointId, setEndpointId] = useState('');
  const [role, setRole] = useState<Role>('Reader');
  const user = users.find((u) => u.id === userId);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || !endpointId) return;
    await onDone(
      role === 'None'
        ? `${user.email} has no role on ${endpointId} now.`
        : `${user.email} is ${role} on ${endpointId}.`,
      () =>
        ok(
          api.PUT('/api/users/{userId}/endpoint-roles/{endpointId}', {
            params: { path: { userId: user.id, endpointId } },
            body: { role },
          }),
        ),
    );
  };
  return (
    <form className="card admin-form" onSubmit={submit} aria-label="endpoint role">
      <h2>Role on an endpoint</h2>
      <label>
        User
        <select name="grantUser" value={userId} onChange={(e) => setUserId(e.target.value)}>
          <option value="">Choose…</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.email}
            </option>
          ))}
        </select>
      </label>
      <label>
        Endpoint
        <select name="grantEndpoint" value={endpointId} onChange={(e) => setEndpointId(e.target.value)}>
          <option value="">Choose…</option>
          {(endpoints.data ?? []).map((e) => (
            <option key={e.endpointId} value={e.endpointId}>
              {e.endpointId}
            </option>
          ))}
        </select>
      </label>
      <label>
        Role
        <select name="grantRole" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="Reader">Reader</option>
          <option value="Contributor">Contributor</option>
          <option value="Owner">Owner</option>
          <option value="None">None (take the grant away)</option>
        </select>
      </label>
      <button type="submit" disabled={!user || !endpointId}>
        Set role
      </button>
    </form>
  );
}
