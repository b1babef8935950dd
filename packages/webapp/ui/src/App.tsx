import { useQuery } from '@tanstack/react-query';
import { api, type Me, ok } from './api.js';
import { Layout } from './components/Layout.js';
import { useLiveUpdates } from './live.js';
import { AccountPage } from './pages/AccountPage.js';
import { AdminPage } from './pages/admin/AdminPage.js';
import { BulkJobPage, BulkJobsPage } from './pages/BulkJobsPage.js';
import { ChoosePasswordPage } from './pages/ChoosePasswordPage.js';
import { DeadLettersPage } from './pages/DeadLettersPage.js';
import { EndpointDetailsPage } from './pages/EndpointDetailsPage.js';
import { EndpointsPage } from './pages/EndpointsPage.js';
import { EventDetailsPage } from './pages/EventDetailsPage.js';
import { FailureGroupsPage } from './pages/FailureGroupsPage.js';
import { HealthPage } from './pages/HealthPage.js';
import { LoginPage } from './pages/LoginPage.js';
import { MetricsPage } from './pages/MetricsPage.js';
import { MonitoringPage } from './pages/MonitoringPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { OperationsPage } from './pages/OperationsPage.js';
import { SearchPage } from './pages/SearchPage.js';
import { TopologyPage } from './pages/TopologyPage.js';
import { loginUrl } from './return-path.js';
import { usePath } from './router.js';

function Page({ path, me }: { path: string; me: Me }) {
  const pathname = path.split('?')[0] ?? '/';
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'endpoints' && parts[1] && parts[2] === 'events' && parts[3]) {
    return <EventDetailsPage key={`${parts[1]}/${parts[3]}`} endpointId={parts[1]} eventId={parts[3]} />;
  }
  if (parts[0] === 'endpoints' && parts[1] && parts[2] === 'failure-groups')
    return <FailureGroupsPage key={`groups/${parts[1]}`} endpointId={parts[1]} />;
  if (parts[0] === 'endpoints' && parts[1])
    return <EndpointDetailsPage key={parts[1]} endpointId={parts[1]} />;
  switch (parts[0]) {
    case 'failure-groups':
      return <FailureGroupsPage key="groups" />;
    case 'bulk-jobs':
      return parts[1] ? <BulkJobPage key={parts[1]} jobId={parts[1]} /> : <BulkJobsPage />;
    case 'search':
      return <SearchPage search={path.split('?')[1] ?? ''} />;
    // /metrics belongs to the server (Prometheus): a reload there would never reach this page.
    case 'charts':
      return <MetricsPage />;
    case 'monitoring':
      return <MonitoringPage />;
    case 'health':
      return <HealthPage />;
    case 'topology':
      return <TopologyPage />;
    case 'operations':
      return <OperationsPage />;
    case 'dead-letters':
      return <DeadLettersPage key={parts[1] ?? ''} input={parts[1] ?? null} />;
    case 'account':
      return <AccountPage me={me} />;
    case 'admin':
      return <AdminPage section={parts[1]} me={me} />;
    case undefined:
    case 'endpoints':
      return <EndpointsPage />;
    default:
      return <NotFoundPage path={pathname} />;
  }
}

function SignedIn({ me, path }: { me: Me; path: string }) {
  const live = useLiveUpdates();
  return (
    <Layout
      user={me.displayName ?? me.email ?? ''}
      live={live}
      warning={
        me.usesDefaultPassword ? (
          <>
            You are signed in with the documented default password. Anyone who has read the docs can sign in
            as you: <a href="/account">change it now</a>.
          </>
        ) : null
      }
    >
      <Page path={path} me={me} />
    </Layout>
  );
}

export function App() {
  const path = usePath();
  const me = useQuery({ queryKey: ['me'], queryFn: () => ok(api.GET('/api/auth/me')) });
  if (path.startsWith('/account/login')) return <LoginPage />;
  if (me.isLoading) return <p className="loading">Loading…</p>;
  if (!me.data?.isAuthenticated) {
    window.location.assign(loginUrl(path));
    return null;
  }
  if (me.data.mustChangePassword) return <ChoosePasswordPage me={me.data} />;
  return <SignedIn me={me.data} path={path} />;
}
