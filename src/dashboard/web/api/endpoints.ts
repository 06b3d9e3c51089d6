/** The API calls the pages make, typed (paths as in the README); `'bare'` marks SPEC.md's top-level answers. */
import type { ApiClient } from './client';
import type {
  AcknowledgeBody,
  AlertMetric,
  AlertRuleBody,
  AlertRuleDeleted,
  AlertRuleDetail,
  AlertRulePatch,
  AskBody,
  MetricReading,
  NoteBody,
  PolicyName,
  ResolveBody,
  SyncTriggerBody,
} from './types';
import type {
  AlertRule,
  ChannelName,
  ClusterView,
  CurrentOncall,
  Evaluation,
  Incident,
  IncidentEvent,
  IncidentListPage,
  Me,
  OncallRange,
  Schedule,
  SlowQueriesView,
  SpillView,
  StorageView,
  SyncRun,
  SyncJob,
  SyncJobAlerting,
  SyncTriggered,
  TableAlertsView,
  UserName,
  VacuumView,
} from './types';
import type { AssistantAnswer } from './types';
import { everyPage } from './every-page';
import type {
  GrantHolderDraft,
  GroupDetail,
  PermissionGrants,
  PermissionOverrides,
  PermissionsBody,
  Role,
  TenantDefaults,
  User,
  UserChange,
  UserDraft,
  UserPermissions,
} from './types';
import type {
  ChannelChange,
  ChannelDraft,
  ChannelTestAnswer,
  EscalationPolicy,
  EscalationPolicyDraft,
  Group,
  NotificationChannel,
} from './types';
import type { ScheduleDetail, ScheduleDraft, SchedulePreview } from './types';
import type { EscalationPreview } from './types';
import type { Deleted, MaintenanceWindow, MaintenanceWindowBody } from './types';
import type { Heartbeat, HeartbeatBody, HeartbeatWithAddress } from './types';
import type { RuleBacktest, RuleBacktestRequest } from './types';
import type {
  Integration,
  IntegrationBody,
  IntegrationWithKey,
  ManualIncidentBody,
  RotateRoutingKeyBody,
} from './types';
import type { AnalyticsGroupBy, IncidentAnalytics, OncallHealth } from './types';

const id = encodeURIComponent;
const DAY_MS = 86_400_000;
/** since= and until= of the `days` days up to now, both sent: the browser's now names the range. */
const lastDays = (days: number, now = Date.now()) =>
  `since=${id(new Date(now - days * DAY_MS).toISOString())}&until=${id(new Date(now).toISOString())}`;

export const endpoints = (api: ApiClient) => ({
  me: () => api.get<Me>('/api/v1/me'),

  openIncidents: () => api.get<Incident[]>('/api/v1/incidents?status=triggered,acknowledged&limit=200'),
  /** A page of incidents, with the cursor of the next (the envelope's `page`). */
  incidentsPage: (query: URLSearchParams, cursor?: string) =>
    api.get<IncidentListPage>(`/api/v1/incidents?${query.toString()}${cursor ? `&cursor=${id(cursor)}` : ''}`, 'bare'),
  incident: (incidentId: string) => api.get<Incident>(`/api/v1/incidents/${id(incidentId)}`),
  incidentAsOf: (incidentId: string, at: Date) =>
    api.get<Incident>(`/api/v1/incidents/${id(incidentId)}?as_of=${id(at.toISOString())}`),
  incidentEvents: (incidentId: string) => api.get<IncidentEvent[]>(`/api/v1/incidents/${id(incidentId)}/events`),
  acknowledge: (incidentId: string) =>
    api.send<Incident>('POST', `/api/v1/incidents/${id(incidentId)}/acknowledge`, {} satisfies AcknowledgeBody),
  resolve: (incidentId: string, note?: string) =>
    api.send<Incident>(
      'POST',
      `/api/v1/incidents/${id(incidentId)}/resolve`,
      (note ? { note } : {}) satisfies ResolveBody,
    ),
  addNote: (incidentId: string, text: string) =>
    api.send<Incident>('POST', `/api/v1/incidents/${id(incidentId)}/notes`, { text } satisfies NoteBody),
  userNames: () => api.get<UserName[]>('/api/v1/user-names'),
  channelNames: () => api.get<ChannelName[]>('/api/v1/notification-channels?limit=200'),

  schedules: () => api.get<Schedule[]>('/api/v1/schedules?limit=200'),
  currentOncall: (scheduleId: string) =>
    api.get<CurrentOncall>(`/api/v1/schedules/${id(scheduleId)}/current-oncall`, 'bare'),
  oncallRange: (scheduleId: string, since: Date, days: number) =>
    api.get<OncallRange>(
      `/api/v1/schedules/${id(scheduleId)}/oncall?since=${id(since.toISOString())}&until=${id(new Date(since.getTime() + days * DAY_MS).toISOString())}`,
    ),

  triggerSync: (jobId?: string) =>
    api.send<SyncTriggered>(
      'POST',
      '/api/v1/sync/trigger',
      (jobId ? { job_id: jobId } : {}) satisfies SyncTriggerBody,
      'bare',
    ),
  pauseSync: (jobId: string) => api.send<unknown>('POST', `/api/v1/sync/jobs/${id(jobId)}/pause`),
  resumeSync: (jobId: string) => api.send<unknown>('POST', `/api/v1/sync/jobs/${id(jobId)}/resume`),
  syncJobs: () => api.get<SyncJob[]>('/api/v1/sync/jobs'),
  setSyncJobAlerting: (jobId: string, policyId: string | null, missedRuns: number) =>
    api.send<SyncJobAlerting>('PUT', `/api/v1/sync/jobs/${id(jobId)}/alerting`, {
      alert_policy_id: policyId,
      alert_after_missed_runs: missedRuns,
    }),
  lastFailedRun: async (jobId: string) =>
    (await api.get<SyncRun[]>(`/api/v1/sync/history?job_id=${id(jobId)}&status=failed&limit=1`))[0],

  cluster: () => api.get<ClusterView>('/api/v1/warehouse/cluster'),
  slowQueries: () => api.get<SlowQueriesView>('/api/v1/warehouse/queries/slow', 'bare'),
  spill: () => api.get<SpillView>('/api/v1/warehouse/queries/spill'),
  vacuum: () => api.get<VacuumView>('/api/v1/warehouse/tables/vacuum'),
  tableAlerts: () => api.get<TableAlertsView>('/api/v1/warehouse/tables/alerts'),
  storage: () => api.get<StorageView>('/api/v1/warehouse/storage', 'bare'),

  alertRules: (metric?: string) =>
    api.get<AlertRule[]>(`/api/v1/alert-rules?limit=200${metric ? `&metric=${id(metric)}` : ''}`),
  setRuleEnabled: (ruleId: string, enabled: boolean) =>
    api.send<AlertRule>('PATCH', `/api/v1/alert-rules/${id(ruleId)}`, { is_enabled: enabled } satisfies AlertRulePatch),
  rule: (ruleId: string) => api.tagged<AlertRuleDetail>('GET', `/api/v1/alert-rules/${id(ruleId)}`),
  createRule: (body: AlertRuleBody) => api.tagged<AlertRuleDetail>('POST', '/api/v1/alert-rules', body),
  replaceRule: (ruleId: string, body: AlertRuleBody, etag: string | null) =>
    api.tagged<AlertRuleDetail>('PUT', `/api/v1/alert-rules/${id(ruleId)}`, body, etag ? { 'If-Match': etag } : {}),
  deleteRule: (ruleId: string) => api.tagged<AlertRuleDeleted>('DELETE', `/api/v1/alert-rules/${id(ruleId)}`),
  alertMetrics: () => api.get<AlertMetric[]>('/api/v1/alert-metrics'),
  metricReading: (metric: string, windowMinutes: number, clusterId?: string) =>
    api.get<MetricReading>(
      `/api/v1/alert-metrics/reading?metric=${id(metric)}&window_minutes=${windowMinutes}${clusterId ? `&cluster_id=${id(clusterId)}` : ''}`,
    ),
  policyNames: () => api.get<PolicyName[]>('/api/v1/escalation-policies?limit=200'),
  ruleHistory: (ruleId: string, limit = 60) =>
    api.get<Evaluation[]>(`/api/v1/alert-rules/${id(ruleId)}/history?limit=${limit}`),

  ask: (prompt: string) => api.send<AssistantAnswer>('POST', '/api/v1/ask', { prompt } satisfies AskBody, 'bare'),
  channels: () => api.get<NotificationChannel[]>('/api/v1/notification-channels?limit=200'),
  createChannel: (draft: ChannelDraft) => api.send<NotificationChannel>('POST', '/api/v1/notification-channels', draft),
  updateChannel: (channelId: string, draft: ChannelChange) =>
    api.send<NotificationChannel>('PUT', `/api/v1/notification-channels/${id(channelId)}`, draft),
  deleteChannel: (channelId: string) => api.send<unknown>('DELETE', `/api/v1/notification-channels/${id(channelId)}`),
  testChannel: (channelId: string) =>
    api.send<ChannelTestAnswer>('POST', `/api/v1/notification-channels/${id(channelId)}/test`, {}, 'bare'),

  policies: () => api.get<EscalationPolicy[]>('/api/v1/escalation-policies?limit=200'),
  createPolicy: (draft: EscalationPolicyDraft) =>
    api.send<EscalationPolicy>('POST', '/api/v1/escalation-policies', draft),
  replacePolicy: (policyId: string, draft: EscalationPolicyDraft) =>
    api.send<EscalationPolicy>('PUT', `/api/v1/escalation-policies/${id(policyId)}`, draft),
  deletePolicy: (policyId: string) => api.send<unknown>('DELETE', `/api/v1/escalation-policies/${id(policyId)}`),
  groups: () => api.get<Group[]>('/api/v1/groups?limit=200'),

  // ---- People (issue 29): users, roles, groups, overrides, tenant defaults ----
  users: () => everyPage<User>(api, '/api/v1/users?limit=200'),
  inviteUser: (draft: UserDraft) => api.send<User>('POST', '/api/v1/users', draft),
  updateUser: (userId: string, change: UserChange) => api.send<User>('PUT', `/api/v1/users/${id(userId)}`, change),
  deleteUser: (userId: string) => api.send<unknown>('DELETE', `/api/v1/users/${id(userId)}`),
  userPermissions: (userId: string) => api.get<UserPermissions>(`/api/v1/users/${id(userId)}/permissions`),
  userOverrides: (userId: string) => api.get<PermissionOverrides>(`/api/v1/users/${id(userId)}/permission-overrides`),
  setUserOverrides: (userId: string, permissions: PermissionGrants) =>
    api.send<unknown>('PUT', `/api/v1/users/${id(userId)}/permission-overrides`, {
      permissions,
    } satisfies PermissionsBody),
  roles: () => everyPage<Role>(api, '/api/v1/roles?limit=200'),
  createRole: (draft: GrantHolderDraft) => api.send<Role>('POST', '/api/v1/roles', draft),
  replaceRole: (roleId: string, draft: GrantHolderDraft) => api.send<Role>('PUT', `/api/v1/roles/${id(roleId)}`, draft),
  deleteRole: (roleId: string) => api.send<unknown>('DELETE', `/api/v1/roles/${id(roleId)}`),
  groupDetails: () => everyPage<GroupDetail>(api, '/api/v1/groups?limit=200'),
  createGroup: (draft: GrantHolderDraft) => api.send<GroupDetail>('POST', '/api/v1/groups', draft),
  replaceGroup: (groupId: string, draft: GrantHolderDraft) =>
    api.send<GroupDetail>('PUT', `/api/v1/groups/${id(groupId)}`, draft),
  deleteGroup: (groupId: string) => api.send<unknown>('DELETE', `/api/v1/groups/${id(groupId)}`),
  addMember: (groupId: string, userId: string) =>
    api.send<GroupDetail>('PUT', `/api/v1/groups/${id(groupId)}/members/${id(userId)}`),
  removeMember: (groupId: string, userId: string) =>
    api.send<GroupDetail>('DELETE', `/api/v1/groups/${id(groupId)}/members/${id(userId)}`),
  tenantDefaults: () => api.get<TenantDefaults>('/api/v1/tenant/permission-defaults'),
  setTenantDefaults: (permissions: PermissionGrants) =>
    api.send<TenantDefaults>('PUT', '/api/v1/tenant/permission-defaults', { permissions } satisfies PermissionsBody),
  // ---- end of People ----
  scheduleDetails: () => api.get<ScheduleDetail[]>('/api/v1/schedules?limit=200'),
  createSchedule: (draft: ScheduleDraft) => api.send<ScheduleDetail>('POST', '/api/v1/schedules', draft),
  schedule: (scheduleId: string) => api.tagged<ScheduleDetail>('GET', `/api/v1/schedules/${id(scheduleId)}`),
  updateSchedule: (scheduleId: string, draft: ScheduleDraft, etag: string | null) =>
    api.tagged<ScheduleDetail>('PUT', `/api/v1/schedules/${id(scheduleId)}`, draft, etag ? { 'If-Match': etag } : {}),
  deleteSchedule: (scheduleId: string) => api.send<unknown>('DELETE', `/api/v1/schedules/${id(scheduleId)}`),
  previewSchedule: (draft: ScheduleDraft, since: Date, days: number) =>
    api.send<SchedulePreview>(
      'POST',
      `/api/v1/schedules/preview?since=${id(since.toISOString())}&until=${id(new Date(since.getTime() + days * DAY_MS).toISOString())}`,
      draft,
    ),
  policy: (policyId: string) => api.get<EscalationPolicy>(`/api/v1/escalation-policies/${id(policyId)}`),
  // ---- Escalation preview (issue 30): who gets paged if it fires at `at` (default now) ----
  previewPolicyDraft: (draft: EscalationPolicyDraft, at?: Date) =>
    api.send<EscalationPreview>(
      'POST',
      `/api/v1/escalation-policies/preview${at ? `?at=${id(at.toISOString())}` : ''}`,
      draft,
    ),
  previewPolicy: (policyId: string, at?: Date) =>
    api.get<EscalationPreview>(
      `/api/v1/escalation-policies/${id(policyId)}/preview${at ? `?at=${id(at.toISOString())}` : ''}`,
    ),
  // ---- end of Escalation preview ----
  // ---- Maintenance windows (issue 30) ----
  maintenanceWindows: (activeAt?: Date) =>
    everyPage<MaintenanceWindow>(
      api,
      `/api/v1/maintenance-windows?limit=200${activeAt ? `&active_at=${id(activeAt.toISOString())}` : ''}`,
    ),
  maintenanceWindow: (windowId: string) =>
    api.tagged<MaintenanceWindow>('GET', `/api/v1/maintenance-windows/${id(windowId)}`),
  createMaintenanceWindow: (body: MaintenanceWindowBody) =>
    api.tagged<MaintenanceWindow>('POST', '/api/v1/maintenance-windows', body),
  replaceMaintenanceWindow: (windowId: string, body: MaintenanceWindowBody, etag: string | null) =>
    api.tagged<MaintenanceWindow>(
      'PUT',
      `/api/v1/maintenance-windows/${id(windowId)}`,
      body,
      etag ? { 'If-Match': etag } : {},
    ),
  endMaintenanceWindow: (windowId: string) =>
    api.send<MaintenanceWindow>('POST', `/api/v1/maintenance-windows/${id(windowId)}/end`),
  deleteMaintenanceWindow: (windowId: string) =>
    api.send<Deleted>('DELETE', `/api/v1/maintenance-windows/${id(windowId)}`),
  maintenanceWindowEvents: (windowId: string) =>
    api.get<IncidentEvent[]>(`/api/v1/maintenance-windows/${id(windowId)}/events`),
  // ---- end of Maintenance windows ----
  // ---- Heartbeats (issue 38) ----
  heartbeats: () => everyPage<Heartbeat>(api, '/api/v1/heartbeats?limit=200'),
  heartbeat: (heartbeatId: string) => api.tagged<Heartbeat>('GET', `/api/v1/heartbeats/${id(heartbeatId)}`),
  createHeartbeat: (body: HeartbeatBody) => api.send<HeartbeatWithAddress>('POST', '/api/v1/heartbeats', body),
  replaceHeartbeat: (heartbeatId: string, body: HeartbeatBody, etag: string | null) =>
    api.tagged<Heartbeat>('PUT', `/api/v1/heartbeats/${id(heartbeatId)}`, body, etag ? { 'If-Match': etag } : {}),
  rotateHeartbeatToken: (heartbeatId: string) =>
    api.send<HeartbeatWithAddress>('POST', `/api/v1/heartbeats/${id(heartbeatId)}/rotate-token`),
  revokeHeartbeatToken: (heartbeatId: string) =>
    api.send<Heartbeat>('POST', `/api/v1/heartbeats/${id(heartbeatId)}/revoke-token`),
  deleteHeartbeat: (heartbeatId: string) =>
    api.send<{ id: string; deleted: true }>('DELETE', `/api/v1/heartbeats/${id(heartbeatId)}`),
  // ---- end of Heartbeats ----

  // ---- Integrations and paging by hand (issue 40) ----
  integrations: () => everyPage<Integration>(api, '/api/v1/integrations?limit=200'),
  integration: (integrationId: string) => api.tagged<Integration>('GET', `/api/v1/integrations/${id(integrationId)}`),
  createIntegration: (body: IntegrationBody) => api.send<IntegrationWithKey>('POST', '/api/v1/integrations', body),
  replaceIntegration: (integrationId: string, body: IntegrationBody, etag: string | null) =>
    api.tagged<Integration>('PUT', `/api/v1/integrations/${id(integrationId)}`, body, etag ? { 'If-Match': etag } : {}),
  rotateIntegrationKey: (integrationId: string, body: RotateRoutingKeyBody) =>
    api.send<IntegrationWithKey>('POST', `/api/v1/integrations/${id(integrationId)}/rotate-key`, body),
  revokeIntegrationKey: (integrationId: string) =>
    api.send<Integration>('POST', `/api/v1/integrations/${id(integrationId)}/revoke-key`),
  deleteIntegration: (integrationId: string) =>
    api.send<Deleted>('DELETE', `/api/v1/integrations/${id(integrationId)}`),
  /** The incidents an integration's senders opened, newest first: what it received lately. */
  integrationIncidents: (integrationId: string, limit = 10) =>
    api.get<Incident[]>(`/api/v1/incidents?source=${id(`integration:${integrationId}`)}&limit=${limit}`),
  pageByHand: (body: ManualIncidentBody) => api.send<Incident>('POST', '/api/v1/incidents', body),
  // ---- end of Integrations ----
  // ---- Rule backtest (issue 30): would this unsaved rule have fired over a past range ----
  backtestRule: (request: RuleBacktestRequest) =>
    api.send<RuleBacktest>('POST', '/api/v1/alert-rules/backtest', request),
  // ---- end of Rule backtest ----
  // ---- Incident analytics: the last `days` days to now, buckets in the browser's zone ----
  incidentAnalytics: (groupBy: AnalyticsGroupBy, days: number, tz: string) =>
    api.get<IncidentAnalytics>(`/api/v1/analytics/incidents?${lastDays(days)}&group_by=${groupBy}&tz=${id(tz)}`),
  oncallHealth: (days: number) => api.get<OncallHealth>(`/api/v1/analytics/oncall?${lastDays(days)}`),
  // ---- end of Incident analytics ----
});

export type Endpoints = ReturnType<typeof endpoints>;
