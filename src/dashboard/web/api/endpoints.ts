/** The API calls the pages make, typed (paths as in the README); `'bare'` marks SPEC.md's top-level answers. */
import type { ApiClient } from './client';
import type {
  AlertRule, ChannelName, ClusterView, CurrentOncall, Evaluation, Incident, IncidentEvent, IncidentListPage, Me, OncallRange, Schedule, SlowQueriesView, SpillView,
  StorageView, SyncRun, SyncTriggered, TableAlertsView, UserName, VacuumView,
} from './types';

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
  ruleHistory: (ruleId: string, limit = 60) => api.get<Evaluation[]>(`/api/v1/alert-rules/${id(ruleId)}/history?limit=${limit}`),
});

export type Endpoints = ReturnType<typeof endpoints>;
