/** The shapes the dashboard reads from the API (README: the resource sections). */

export type Permission =
  | 'iam:read' | 'iam:write' | 'iam:admin' | 'alerts:read' | 'alerts:write' | 'incidents:read' | 'incidents:write'
  | 'escalation:read' | 'escalation:write' | 'schedules:read' | 'schedules:write' | 'channels:read' | 'channels:write'
  | 'sync:read' | 'sync:write' | 'warehouse:read' | 'assistant:ask' | 'audit:read' | 'simulator:write';

export interface Me {
  principal: {
    kind: 'user' | 'client';
    subject: string;
    user_id: string;
    tenant_id: string;
    env_id: string;
    name: string | null;
    email: string | null;
  };
  allowed: Permission[];
}

export type IncidentStatus = 'triggered' | 'acknowledged' | 'resolved';

export interface Incident {
  id: string;
  rule_id: string;
  rule_name: string;
  status: IncidentStatus;
  severity: 'critical' | 'high' | 'medium' | 'low';
  current_value: number | null;
  metric: string;
  condition: string;
  threshold: number;
  cluster_id: string | null;
  triggered_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution_reason: string | null;
  resolution_note: string | null;
  notes: { id: string; text: string; author: string; created_at: string }[];
  as_of?: string;
  escalation_policy_id?: string;
  next_escalation_at?: string | null;
  escalation?: IncidentEscalationView;
}

/** The escalation summary GET /incidents/{id} carries (src/events/incident.ts, publicIncident). */
export interface IncidentEscalationView {
  status: 'pending' | 'running' | 'not_started' | 'cancelled';
  cancel_reason: 'acknowledged' | 'resolved' | null;
  policy_name: string | null;
  current_stage: { stage_order: number; cycle: number; fired_at: string } | null;
}

/** GET /api/v1/user-names: any token of the tenant may read them (names only). */
export interface UserName {
  id: string;
  name: string;
  removed: boolean;
}

/** The fields of a notification channel the incident page names deliveries with. */
export interface ChannelName {
  id: string;
  name: string;
  type: string;
}

export interface IncidentEvent {
  id: string;
  type: string;
  position: string;
  occurred_at: string;
  actor: string;
  data: Record<string, unknown>;
}

export interface Schedule {
  id: string;
  name: string;
  timezone: string;
}

export interface OncallPerson {
  user_id: string;
  name: string;
  email: string;
}

export interface CurrentOncall {
  schedule_id: string;
  at: string;
  current_oncall: (OncallPerson & { on_call_since: string; on_call_until: string | null; source: string }) | null;
}

export interface OncallSegment extends OncallPerson {
  start: string;
  end: string;
  source: 'layer' | 'override';
}

export interface OncallRange {
  schedule_id: string;
  since: string;
  until: string;
  segments: OncallSegment[];
}

export interface SyncJobStatus {
  job_id: string;
  name: string;
  status: 'active' | 'paused' | 'running';
  last_run: string | null;
  next_run: string | null;
  interval_seconds: number;
  last_result: { rows_extracted: number; rows_upserted: number; duration_ms: number; status: 'success' | 'failed' } | null;
}

export interface SyncStatus {
  /** Whether the platform's sync scheduler runs (`stopped` with SYNC_SCHEDULER=off). */
  status: 'running' | 'stopped';
  scheduler_timezone: string;
  jobs: SyncJobStatus[];
}

export interface SyncRun {
  log_id: string;
  job_id: string;
  status: string;
  started_at: string;
  error: string | null;
}

export interface SyncTriggered {
  success: boolean;
  triggered_jobs: string[];
  message: string;
}

export interface ClusterView {
  clusters: { cluster_id: string; kind: string; node_type: string | null; node_count: number; capacity_gb: number | null; used_gb: number; pct_used: number | null }[];
  nodes: { cluster_id: string; id: string; role: string; capacity_gb: number | null; used_gb: number; pct_used: number | null }[];
  totals: { node_count: number; capacity_gb: number | null; used_gb: number; pct_used: number | null };
  generated_at: string;
}

export interface SlowQueriesView {
  queries: { query_id: number; exec_time_seconds: number; user_name: string; wlm_queue: string; query_text: string; cluster_id: string }[];
  threshold_seconds: number;
}

export interface SpillView {
  queries: { query_id: number; user_name: string; spill_mb: number; exec_time_seconds: number; query_text: string; cluster_id: string }[];
}

export interface VacuumView {
  tables: { schema: string; table_name: string; unsorted_pct: number; stats_off: number; recommendation: string; cluster_id: string }[];
}

export interface TableAlertsView {
  alerts: { schema: string; table_name: string; event: string; solution: string; count: number; last_seen: string; cluster_id: string }[];
}

export interface StorageView {
  tables: { schema: string; table_name: string; size_mb: number; tbl_rows: number; unsorted_pct: number; cluster_id: string }[];
}

export interface AlertRule {
  id: string;
  name: string;
  metric: string;
  condition: string;
  threshold: number;
  severity: Incident['severity'];
  cluster_id: string | null;
  is_enabled: boolean;
  active_incident_id: string | null;
  health: 'ok' | 'failing';
}

export interface Evaluation {
  at: string;
  value: number | null;
  condition_met: boolean;
  outcome: string;
}

/** GET /api/v1/incidents as it comes (the envelope, with the page's cursor). */
export interface IncidentListPage {
  data: Incident[];
  page: { limit: number; next_cursor: string | null };
}
