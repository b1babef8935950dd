import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, api, ok } from '../../api.js';
import { AdminNav } from '../../components/AdminNav.js';
import { useAdminAction } from './admin-action.js';
import { CreateUserForm } from './CreateUserForm.js';
import { EndpointRoleForm } from './EndpointRoleForm.js';
import { ResetPasswordForm } from './ResetPasswordForm.js';

type User = Answer<'/api/users'>[number];
const SITE_ROLES = ['None', 'Reader', 'Contributor', 'Owner'] as const;
type SiteRole = (typeof SITE_ROLES)[number];

/** Local users: create, change site and endpoint roles, disable or enable, reset the password, delete. */
export function UsersPage({ myEmail }: { myEmail: string | null }) {
  const users = useQuery({ queryKey: ['admin', 'users'], queryFn: () => ok(api.GET('/api/users')) });
  const { notice, error, run } = useAdminAction(['admin', 'users']);
  const path = (user: User) => ({ params: { path: { userId: user.id } } });
  const setSiteRole = (user: User, role: SiteRole) =>
    run(`${user.email} is now ${role} site-wide.`, () =>
      ok(api.PUT('/api/users/{userId}/site-role', { ...path(user), body: { role } })),
    );
  const setDisabled = (user: User, disabled: boolean) =>
    run(`${user.email} is ${disabled ? 'disabled' : 'enabled'}.`, () =>
      ok(api.PUT('/api/users/{userId}/disabled', { ...path(user), body: { disabled } })),
    );
  const [resetting, setResetting] = useState<string | null>(null);
  const resetPassword = (user: User, newPassword: string) =>
    run(`The password of ${user.email} was reset; their sessions ended.`, async () => {
      await ok(api.POST('/api/users/{userId}/reset-password', { ...path(user), body: { newPassword } }));
      setResetting(null);
    });
  const remove = (user: User) => {
    if (
      !window.confirm(
        `Delete ${user.email} with their roles, sessions and API tokens? This cannot be undone.`,
      )
    )
      return;
    void run(`${user.email} was deleted.`, () => ok(api.DELETE('/api/users/{userId}', path(user))));
  };

  return (
    <section>
      <h1>Administration</h1>
      <AdminNav current="/admin/users" />
      {notice && <p className="notice">{notice}</p>}
      {error && <p className="error">{error}</p>}
      {users.error && <p className="error">{String(users.error.message)}</p>}
      <table className="table" data-testid="users">
        <thead>
          <tr>
            <th>User</th>
            <th>Site role</th>
            <th>Endpoint roles</th>
            <th>State</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {(users.data ?? []).map((user) => (
            <tr key={user.id} data-email={user.email}>
              <td>
                {user.email}
                {user.displayName ? <div className="hint">{user.displayName}</div> : null}
              </td>
              <td>
                <select
                  aria-label={`site role of ${user.email}`}
                  value={user.siteRole}
                  onChange={(e) => void setSiteRole(user, e.target.value as SiteRole)}
                >
                  {SITE_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                {user.endpointRoles.length === 0
                  ? '—'
                  : user.endpointRoles.map((g) => `${g.endpointId}: ${g.role}`).join(', ')}
              </td>
              <td data-testid="user-state">{user.disabledAt ? 'Disabled' : 'Active'}</td>
              <td>
                <div className="actions">
                  {user.email !== myEmail && (
                    <button type="button" onClick={() => void setDisabled(user, !user.disabledAt)}>
                      {user.disabledAt ? 'Enable' : 'Disable'}
                    </button>
                  )}
                  <button type="button" onClick={() => setResetting(resetting === user.id ? null : user.id)}>
                    Reset password
                  </button>
                  {user.email !== myEmail && (
                    <button type="button" className="danger" onClick={() => remove(user)}>
                      Delete
                    </button>
                  )}
                </div>
                {resetting === user.id && (
                  <ResetPasswordForm email={user.email} onSubmit={(p) => void resetPassword(user, p)} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="card-row">
        <CreateUserForm onDone={(what, call) => run(what, call)} />
        <EndpointRoleForm users={users.data ?? []} onDone={(what, call) => run(what, call)} />
      </div>
    </section>
  );
}
