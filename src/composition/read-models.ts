/**
 * Every projection of the platform, per area, in one module that imports nothing but the
 * projections: the composition of each area hands its list to the runner, the rebuild CLI
 * rebuilds them, and the projection host on the writer thread (projection-host.ts) builds them
 * from here without loading any area's routes.
 */
import { alertRulesProjection } from '../../projections/alert-rules.js';
import { channelsProjection } from '../../projections/channels.js';
import { escalationPoliciesProjection } from '../../projections/escalation-policies.js';
import { changeEventsProjection } from '../../projections/change-events.js';
import { groupsProjection } from '../../projections/groups.js';
import { heartbeatsProjection } from '../../projections/heartbeats.js';
import { incidentAnalyticsProjection } from '../../projections/incident-analytics.js';
import { incidentsProjection } from '../../projections/incidents.js';
import { integrationsProjection } from '../../projections/integrations.js';
import { maintenanceWindowsProjection } from '../../projections/maintenance-windows.js';
import { rolesProjection } from '../../projections/roles.js';
import { schedulesProjection } from '../../projections/schedules.js';
import { syncProjection } from '../../projections/sync.js';
import { tenantDefaultsProjection } from '../../projections/tenant-defaults.js';
import { usersProjection } from '../../projections/users.js';
import type { Projection } from '../projection-runner/projection.js';
import type { SecretBox } from '../secrets/secret-box.js';

/** The channels read model seals secrets with the same box as the event log. */
export const notificationProjections = (secrets: SecretBox): Projection[] => [
  channelsProjection(secrets),
  escalationPoliciesProjection,
];
export const iamProjections: Projection[] = [
  usersProjection,
  groupsProjection,
  rolesProjection,
  tenantDefaultsProjection,
];
export const scheduleProjections: Projection[] = [schedulesProjection];
export const alertingProjections: Projection[] = [
  alertRulesProjection,
  incidentsProjection,
  maintenanceWindowsProjection,
  heartbeatsProjection,
  integrationsProjection,
  changeEventsProjection,
];
export const syncProjections: Projection[] = [syncProjection];
export const analyticsProjections: Projection[] = [incidentAnalyticsProjection];

/** Every read model of the platform (also what `npm run rebuild` rebuilds). */
export const projectionsOf = (secrets: SecretBox): Projection[] => [
  ...notificationProjections(secrets),
  ...iamProjections,
  ...scheduleProjections,
  ...alertingProjections,
  ...syncProjections,
  ...analyticsProjections,
];
