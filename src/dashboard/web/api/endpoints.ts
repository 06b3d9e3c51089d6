/** The API calls the pages make, typed (paths as in the README); `'bare'` marks SPEC.md's top-level answers. */
import type { ApiClient } from './client';
import type { AlertMetric, AlertRuleBody, AlertRuleDetail, MetricReading, PolicyName } from './types';
import type {
  AlertRule, ChannelName, ClusterView, CurrentOncall, Evaluation, Incident, IncidentEvent, IncidentListPage, Me, OncallRange, Schedule, SlowQueriesView, SpillView,
  StorageView, SyncRun, SyncTriggered, TableAlertsView, UserName, VacuumView,
} from './types';
import type { AssistantAnswer } from './types';
import type { ChannelDraft, ChannelTestAnswer, EscalationPolicy, EscalationPolicyDraft, Group, NotificationChannel } from './types';

const id = encodeURIComponent;
const DAY_MS = 86_400_000;

export const endpoints = (api: ApiClient) => ({
  me: () => api.get<Me>('/api/v1/me'),

  openIncidents: () => api.get<Incident[]>('/api/v1/incidents?status=triggered,acknowledged&limit=200'),
  /** A page of incidents, with the cursor of the next (the envelope's `page`). */
  incidentsPage: (query: URLSearchParams, cursor?: string) =>
    api.get<IncidentListPage>(`/api/v1/incidents?${query.toString()}${cursor ? `&cursor=${id(cursor)}` : ''}`, 'bare'),
  incident: (incidentId: string) => api.get<Incident>(`/api/v1/incidents/${id(incidentId)}`),
  incidentAsOf: (incidentId: string, at: Date) => api.get<Incident>(`/api/v1/incidents/${id(incidentId)}?as_of=${id(at.toISOString())}`),
  incidentEvents: (incidentId: string) => api.get<IncidentEvent[]>(`/api/v1/incidents/${id(incidentId)}/events`),
  acknowledge: (incidentId: string) => api.send<Incident>('POST', `/api/v1/incidents/${id(incidentId)}/acknowledge`, {}),
  resolve: (incidentId: string, note?: string) => api.send<Incident>('POST', `/api/v1/incidents/${id(incidentId)}/resolve`, note ? { note } : {}),
  addNote: (incidentId: string, text: string) => api.send<Incident>('POST', `/api/v1/incidents/${id(incidentId)}/notes`, { text }),
  userNames: () => api.get<UserName[]>('/api/v1/user-names'),
  channelNames: () => api.get<ChannelName[]>('/api/v1/notification-channels?limit=200'),

  schedules: () => api.get<Schedule[]>('/api/v1/schedules?limit=200'),
  currentOncall: (scheduleId: string) => api.get<CurrentOncall>(`/api/v1/schedules/${id(scheduleId)}/current-oncall`, 'bare'),
  oncallRange: (scheduleId: string, since: Date, days: number) =>
    api.get<OncallRange>(`/api/v1/schedules/${id(scheduleId)}/oncall?since=${id(since.toISOString())}&until=${id(new Date(since.getTime() + days * DAY_MS).toISOString())}`),

  triggerSync: (jobId?: string) => api.send<SyncTriggered>('POST', '/api/v1/sync/trigger', jobId ? { job_id: jobId } : {}, 'bare'),
  pauseSync: (jobId: string) => api.send<unknown>('POST', `/api/v1/sync/jobs/${id(jobId)}/pause`),
  resumeSync: (jobId: string) => api.send<unknown>('POST', `/api/v1/sync/jobs/${id(jobId)}/resume`),
  lastFailedRun: async (jobId: string) => (await api.get<SyncRun[]>(`/api/v1/sync/history?job_id=${id(jobId)}&status=failed&limit=1`))[0],

  cluster: () => api.get<ClusterView>('/api/v1/warehouse/cluster'),
  slowQueries: () => api.get<SlowQueriesView>('/api/v1/warehouse/queries/slow', 'bare'),
  spill: () => api.get<SpillView>('/api/v1/warehouse/queries/spill'),
  vacuum: () => api.get<VacuumView>('/api/v1/warehouse/tables/vacuum'),
  tableAlerts: () => api.get<TableAlertsView>('/api/v1/warehouse/tables/alerts'),
  storage: () => api.get<StorageView>('/api/v1/warehouse/storage', 'bare'),

  alertRules: (metric?: string) => api.get<AlertRule[]>(`/api/v1/alert-rules?limit=200${metric ? `&metric=${id(metric)}` : ''}`),
  setRuleEnabled: (ruleId: string, enabled: boolean) => api.send<AlertRule>('PATCH', `/api/v1/alert-rules/${id(ruleId)}`, { is_enabled: enabled }),
  rule: (ruleId: string) => api.tagged<AlertRuleDetail>('GET', `/api/v1/alert-rules/${id(ruleId)}`),
  createRule: (body: AlertRuleBody) => api.tagged<AlertRuleDetail>('POST', '/api/v1/alert-rules', body),
  replaceRule: (ruleId: string, body: AlertRuleBody, etag: string | null) =>
    api.tagged<AlertRuleDetail>('PUT', `/api/v1/alert-rules/${id(ruleId)}`, body, etag ? { 'If-Match': etag } : {}),
  deleteRule: (ruleId: string) => api.tagged<{ id: string; deleted: true; resolved_incident_id: string | null }>('DELETE', `/api/v1/alert-rules/${id(ruleId)}`),
  alertMetrics: () => api.get<AlertMetric[]>('/api/v1/alert-metrics'),
  metricReading: (metric: string, windowMinutes: number, clusterId?: string) =>
    api.get<MetricReading>(`/api/v1/alert-metrics/reading?metric=${id(metric)}&window_minutes=${windowMinutes}${clusterId ? `&cluster_id=${id(clusterId)}` : ''}`),
  policyNames: () => api.get<PolicyName[]>('/api/v1/escalation-policies?limit=200'),
  ruleHistory: (ruleId: string, limit = 60) => api.get<Evaluation[]>(`/api/v1/alert-rules/${id(ruleId)}/history?limit=${limit}`),

  ask: (prompt: string) => api.send<AssistantAnswer>('POST', '/api/v1/ask', { prompt }, 'bare'),
  channels: () => api.get<NotificationChannel[]>('/api/v1/notification-channels?limit=200'),
  createChannel: (draft: ChannelDraft) => api.send<NotificationChannel>('POST', '/api/v1/notification-channels', draft),
  updateChannel: (channelId: string, draft: Partial<ChannelDraft>) => api.send<NotificationChannel>('PUT', `/api/v1/notification-channels/${id(channelId)}`, draft),
  deleteChannel: (channelId: string) => api.send<unknown>('DELETE', `/api/v1/notification-channels/${id(channelId)}`),
  testChannel: (channelId: string) => api.send<ChannelTestAnswer>('POST', `/api/v1/notification-channels/${id(channelId)}/test`, {}, 'bare'),

  policies: () => api.get<EscalationPolicy[]>('/api/v1/escalation-policies?limit=200'),
  createPolicy: (draft: EscalationPolicyDraft) => api.send<EscalationPolicy>('POST', '/api/v1/escalation-policies', draft),
  replacePolicy: (policyId: string, draft: EscalationPolicyDraft) => api.send<EscalationPolicy>('PUT', `/api/v1/escalation-policies/${id(policyId)}`, draft),
  deletePolicy: (policyId: string) => api.send<unknown>('DELETE', `/api/v1/escalation-policies/${id(policyId)}`),
  groups: () => api.get<Group[]>('/api/v1/groups?limit=200'),
  policy: (policyId: string) => api.get<EscalationPolicy>(`/api/v1/escalation-policies/${id(policyId)}`),
});

export type Endpoints = ReturnType<typeof endpoints>;
