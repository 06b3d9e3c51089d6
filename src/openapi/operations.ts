/**
 * Every documented operation, one list per area. A new route is documented by adding an entry to
 * its area's list (or a new area file, added here); test/openapi.http.test.ts fails for a served route
 * without an entry and for an entry without a route.
 */
import { actionLinkOperations } from './action-links.js';
import { alertRuleOperations } from './alert-rules.js';
import { analyticsOperations } from './analytics.js';
import { assistantOperations } from './assistant.js';
import { channelOperations } from './channels.js';
import { dashboardOperations } from './dashboard.js';
import { escalationPreviewOperations } from './escalation-preview.js';
import { heartbeatOperations } from './heartbeats.js';
import { integrationOperations } from './integrations.js';
import { iamOperations } from './iam.js';
import { incidentOperations } from './incidents.js';
import { maintenanceWindowOperations } from './maintenance-windows.js';
import type { OperationDoc } from './operation.js';
import { platformOperations } from './platform.js';
import { scheduleOperations } from './schedules.js';
import { syncOperations } from './sync.js';
import { warehouseOperations } from './warehouse.js';

export const documentedOperations: readonly OperationDoc[] = [
  ...platformOperations,
  ...dashboardOperations,
  ...channelOperations,
  ...iamOperations,
  ...scheduleOperations,
  ...warehouseOperations,
  ...alertRuleOperations,
  ...incidentOperations,
  ...syncOperations,
  ...assistantOperations,
  ...escalationPreviewOperations,
  ...maintenanceWindowOperations,
  ...heartbeatOperations,
  ...integrationOperations,
  ...actionLinkOperations,
  ...analyticsOperations,
];
