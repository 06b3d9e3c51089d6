/** The header (pages the principal may read, who is signed in) and the page the route names. */
import type { Permission } from '../api/types';
import { AlertRulesPage } from '../pages/AlertRulesPage';
import { AnalyticsPage } from '../pages/AnalyticsPage';
import { AssistantPage } from '../pages/AssistantPage';
import { ChannelsPage } from '../pages/ChannelsPage';
import { IncidentPage } from '../pages/IncidentPage';
import { IncidentsPage } from '../pages/IncidentsPage';
import { OncallPage } from '../pages/OncallPage';
import { PoliciesPage } from '../pages/PoliciesPage';
import { SchedulesPage } from '../pages/SchedulesPage';
import { SyncPage } from '../pages/SyncPage';
import { WarehousePage } from '../pages/WarehousePage';
import { GroupsPage } from '../pages/GroupsPage';
import { RolesPage } from '../pages/RolesPage';
import { UsersPage } from '../pages/UsersPage';
import { HeartbeatsPage } from '../pages/HeartbeatsPage';
import { MaintenancePage } from '../pages/MaintenancePage';
import { IntegrationsPage } from '../pages/IntegrationsPage';
import { useSession } from './session-context';
import { useHashRoute } from './use-hash-route';
import { useTabTitle } from './use-tab-title';

const PAGES: { path: string; title: string; permission: Permission }[] = [
  { path: 'incidents', title: 'Incidents', permission: 'incidents:read' },
  { path: 'oncall', title: 'On call', permission: 'schedules:read' },
  { path: 'sync', title: 'Sync', permission: 'sync:read' },
  { path: 'warehouse', title: 'Warehouse', permission: 'warehouse:read' },
  { path: 'alert-rules', title: 'Alert rules', permission: 'alerts:read' },
  { path: 'assistant', title: 'Assistant', permission: 'assistant:ask' },
  { path: 'channels', title: 'Channels', permission: 'channels:read' },
  { path: 'policies', title: 'Policies', permission: 'escalation:read' },
  { path: 'schedules', title: 'Schedules', permission: 'schedules:read' },
  { path: 'users', title: 'Users', permission: 'iam:read' },
  { path: 'roles', title: 'Roles', permission: 'iam:read' },
  { path: 'groups', title: 'Groups', permission: 'iam:read' },
  { path: 'maintenance', title: 'Maintenance', permission: 'alerts:read' },
  { path: 'heartbeats', title: 'Heartbeats', permission: 'alerts:read' },
  { path: 'integrations', title: 'Integrations', permission: 'integrations:read' },
  { path: 'analytics', title: 'Analytics', permission: 'analytics:read' },
];

function Page({ route }: { route: string[] }) {
  const [page, id] = route;
  if (page === 'incidents' && id) return <IncidentPage incidentId={id} />;
  if (page === 'incidents') return <IncidentsPage />;
  if (page === 'oncall') return <OncallPage />;
  if (page === 'sync') return <SyncPage />;
  if (page === 'warehouse') return <WarehousePage />;
  if (page === 'alert-rules') return <AlertRulesPage />;
  if (page === 'assistant') return <AssistantPage />;
  if (page === 'channels') return <ChannelsPage />;
  if (page === 'policies') return <PoliciesPage />;
  if (page === 'schedules') return <SchedulesPage />;
  if (page === 'users') return <UsersPage />;
  if (page === 'roles') return <RolesPage />;
  if (page === 'groups') return <GroupsPage />;
  if (page === 'maintenance') return <MaintenancePage />;
  if (page === 'heartbeats') return <HeartbeatsPage />;
  if (page === 'integrations') return <IntegrationsPage />;
  if (page === 'analytics') return <AnalyticsPage />;
  return (
    <p>
      No such page. <a href="#/incidents">Incidents</a>
    </p>
  );
}

export function Shell({ signOut }: { signOut: () => void }) {
  const { me, can } = useSession();
  const route = useHashRoute();
  const visible = PAGES.filter((page) => can(page.permission));
  const current = PAGES.find((page) => page.path === route[0]);
  useTabTitle(current && route[0] === 'incidents' && route[1] ? 'Incident' : current?.title);
  const who = me.principal.name ?? me.principal.email ?? me.principal.subject;
  return (
    <>
      <header class="top">
        <strong class="brand">warehouse-watch</strong>
        <nav>
          {visible.map((page) => (
            <a key={page.path} href={`#/${page.path}`} class={route[0] === page.path ? 'current' : undefined}>
              {page.title}
            </a>
          ))}
        </nav>
        <span
          class="who"
          title={`tenant ${me.principal.tenant_id}, environment ${me.principal.env_id}`}
          data-testid="principal"
        >
          {who} ({me.principal.kind})
        </span>
        <button type="button" class="button plain" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main class="page">
        {current && !can(current.permission) ? (
          <p class="error">This page needs the permission {current.permission}.</p>
        ) : (
          <Page route={route} />
        )}
      </main>
    </>
  );
}
