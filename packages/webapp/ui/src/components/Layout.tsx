import type { ReactNode } from 'react';
import { api, ok } from '../api.js';
import { Link } from './Link.js';

const NAV = [
  ['/', 'Endpoints'],
  ['/failure-groups', 'Failure groups'],
  ['/bulk-jobs', 'Bulk operations'],
  ['/search', 'Search'],
  ['/charts', 'Metrics'],
  ['/monitoring', 'Monitoring'],
  ['/health', 'Heartbeat & health'],
  ['/topology', 'Topology'],
  ['/operations', 'Operations'],
  ['/dead-letters', 'Dead letters'],
  ['/admin/users', 'Administration'],
  ['/account', 'Account'],
] as const;

export function Layout({
  user,
  live,
  warning,
  children,
}: {
  user: string;
  live: boolean;
  /** A persistent banner above every page (e.g. the default password is still in use). */
  warning?: ReactNode;
  children: ReactNode;
}) {
  const signOut = async () => {
    const me = await ok(api.GET('/api/auth/me')).catch(() => null);
    await ok(api.POST('/account/logout'));
    // Signed in through a provider: its session ends too (it then returns to the sign-in page).
    window.location.assign(me?.signInMethod === 'oidc' ? '/account/oidc/signed-out' : '/account/login');
  };
  return (
    <div className="shell">
      <nav className="sidebar">
        <div className="brand">NimBus</div>
        {NAV.map(([to, label]) => (
          <Link key={to} to={to} className="nav-link">
            {label}
          </Link>
        ))}
        <div className="sidebar-footer">
          <div className={live ? 'live on' : 'live'} title="Live updates">
            {live ? '● live' : '○ offline'}
          </div>
          <div className="user">{user}</div>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </nav>
      <main className="content">
        {warning ? (
          <div className="security-banner" role="alert">
            {warning}
          </div>
        ) : null}
        {children}
      </main>
    </div>
  );
}
