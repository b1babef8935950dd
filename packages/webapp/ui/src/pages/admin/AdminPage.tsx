import type { Me } from '../../api.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { AlertsPage } from './AlertsPage.js';
import { AuditLogPage } from './AuditLogPage.js';
import { HeartbeatSettingsPage } from './HeartbeatSettingsPage.js';
import { UsersPage } from './UsersPage.js';

/** `/admin/<section>`; the server decides who may read and change each (site Owner for most). */
export function AdminPage({ section, me }: { section: string | undefined; me: Me }) {
  switch (section) {
    case undefined:
    case 'users':
      return <UsersPage myEmail={me.email} />;
    case 'audit':
      return <AuditLogPage />;
    case 'heartbeat':
      return <HeartbeatSettingsPage />;
    case 'alerts':
      return <AlertsPage />;
    default:
      return <NotFoundPage path={`/admin/${section}`} />;
  }
}
