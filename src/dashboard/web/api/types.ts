/**
 * The shapes the dashboard reads from the API (README: the resource sections). The answers are the
 * server's own zod answer schemas (src/contract/<area>.ts), their types imported type-only, so zod
 * is not bundled and an answer the console does not follow fails `npm run typecheck`.
 */
import type { Page } from '../../../contract/answer-pieces.js';
import type { HistoryEntry } from '../../../contract/event-history.js';
import type { Incident } from '../../../contract/incidents.js';
import type { Severity } from '../../../contract/vocabulary.js';

export type { Page } from '../../../contract/answer-pieces.js';
export type {
  Incident,
  IncidentAsOf,
  IncidentEscalationView,
  NotifiedDelivery,
  PendingEscalation,
} from '../../../contract/incidents.js';
export type { IncidentStatus, Severity } from '../../../contract/vocabulary.js';

/** A list as it comes when read 'bare': the envelope's data and the page's cursor. */
export interface ListPage<T> {
  data: T[];
  page: Page;
}

/** GET /api/v1/incidents as it comes (the envelope, with the page's cursor). */
export type IncidentListPage = ListPage<Incident>;

/** One event of an incident's raw history (GET /incidents/{id}/events), the fields the timeline reads. */
export type IncidentEvent = Pick<HistoryEntry, 'id' | 'type' | 'position' | 'occurred_at' | 'actor' | 'data'>;

export type Permission =
  | 'iam:read'
  | 'iam:write'
  | 'iam:admin'
  | 'alerts:read'
  | 'alerts:write'
  | 'incidents:read'
  | 'incidents:write'
  | 'escalation:read'
  | 'escalation:write'
  | 'schedules:read'
  | 'schedules:write'
  | 'channels:read'
  | 'channels:write'
  | 'sync:read'
  | 'sync:write'
  | 'warehouse:read'
  | 'assistant:ask'
  | 'audit:read'
  | 'simulator:write'
  | 'analytics:read';

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
  last_result: {
    rows_extracted: number;
    rows_upserted: number;
    duration_ms: number;
    status: 'success' | 'failed';
  } | null;
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
  clusters: {
    cluster_id: string;
    kind: string;
    node_type: string | null;
    node_count: number;
    capacity_gb: number | null;
    used_gb: number;
    pct_used: number | null;
  }[];
  nodes: {
    cluster_id: string;
    id: string;
    role: string;
    capacity_gb: number | null;
    used_gb: number;
    pct_used: number | null;
  }[];
  totals: { node_count: number; capacity_gb: number | null; used_gb: number; pct_used: number | null };
  generated_at: string;
}

export interface SlowQueriesView {
  queries: {
    query_id: number;
    exec_time_seconds: number;
    user_name: string;
    wlm_queue: string;
    query_text: string;
    cluster_id: string;
  }[];
  threshold_seconds: number;
}

export interface SpillView {
  queries: {
    query_id: number;
    user_name: string;
    spill_mb: number;
    exec_time_seconds: number;
    query_text: string;
    cluster_id: string;
  }[];
}

export interface VacuumView {
  tables: {
    schema: string;
    table_name: string;
    unsorted_pct: number;
    stats_off: number;
    recommendation: string;
    cluster_id: string;
  }[];
}

export interface TableAlertsView {
  alerts: {
    schema: string;
    table_name: string;
    event: string;
    solution: string;
    count: number;
    last_seen: string;
    cluster_id: string;
  }[];
}

export interface StorageView {
  tables: {
    schema: string;
    table_name: string;
    size_mb: number;
    tbl_rows: number;
    unsorted_pct: number;
    cluster_id: string;
  }[];
}

export interface AlertRule {
  id: string;
  name: string;
  metric: string;
  condition: string;
  threshold: number;
  severity: Severity;
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

/** One tool call the assistant made, in order (docs/assistant.md: `ok`, time in ms, why it failed). */
export interface AssistantToolUse {
  name: string;
  input: unknown;
  ok: boolean;
  ms: number;
  error: 'unknown_tool' | 'invalid_input' | 'timeout' | 'failed' | 'invalid_output' | 'cancelled' | null;
}

/** POST /api/v1/ask: SPEC.md's top-level `response` (Markdown) and what it took, no envelope. */
export interface AssistantAnswer {
  response: string;
  tools_used: AssistantToolUse[];
  usage: { input_tokens: number; output_tokens: number };
  rounds: number;
  stop_reason: string;
}

/** The notification channel types the API accepts (docs/notification-channels.md). */
export type ChannelType = 'email' | 'webhook' | 'chat' | 'pager';

/** A notification channel as the API answers it: secrets in `config` come back masked. */
export interface NotificationChannel {
  id: string;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** A webhook's signing secret, shown once in the answer that made it. */
  signing_secret?: string;
}

export interface ChannelDraft {
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
}

/** POST /notification-channels/{id}/test: the downstream outcome, bare. */
export interface ChannelTestAnswer {
  success: boolean;
  target: string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: { kind: string; message: string } | null;
}

export type TargetType = 'user' | 'group' | 'schedule' | 'channel';
export type PersonMedium = 'email' | 'sms' | 'chat';

export interface PolicyTarget {
  type: TargetType;
  id: string;
  channels: PersonMedium[];
}

export interface PolicyStage {
  stage_order: number;
  delay_minutes: number;
  targets: PolicyTarget[];
}

export interface EscalationPolicyDraft {
  name: string;
  description: string | null;
  stages: PolicyStage[];
  repeat_interval_minutes: number;
}

export interface EscalationPolicy extends EscalationPolicyDraft {
  id: string;
  created_at: string;
  updated_at: string;
}

export interface Group {
  id: string;
  name: string;
}

/** The whole rule, as GET /api/v1/alert-rules/{id} answers it (the editor's fields). */
export interface AlertRuleDetail extends AlertRule {
  description: string | null;
  evaluation_window_minutes: number;
  escalation_policy_id: string;
}

/** The body of POST and PUT /api/v1/alert-rules (commands/alert-rules.ts). */
export interface AlertRuleBody {
  name: string;
  metric: string;
  condition: string;
  threshold: number;
  evaluation_window_minutes: number;
  severity: string;
  escalation_policy_id: string;
  cluster_id: string | null;
  is_enabled?: boolean;
}

/** GET /api/v1/alert-metrics: what a rule can watch. */
export interface AlertMetric {
  id: string;
  unit: string;
  description: string;
}

/** GET /api/v1/alert-metrics/{id}/reading: the value now, as a rule with that window would read it. */
export interface MetricReading {
  metric: string;
  value: number;
  window_minutes: number;
  cluster_id: string | null;
  read_at: string;
}

export interface PolicyName {
  id: string;
  name: string;
}

// ---- People: users, roles, groups, permission overrides, tenant defaults (issue 29) ----

/** A permission map of a role, group, user override or the tenant defaults: a permission not named is left open. */
export type PermissionGrants = Partial<Record<Permission, 'allow' | 'deny'>>;

/** The User resource (SPEC.md, User) as GET /api/v1/users answers it. */
export interface User {
  id: string;
  email: string;
  phone: string | null;
  name: string;
  role_id: string | null;
  group_ids: string[];
  created_at: string;
  last_login: string | null;
  is_active: boolean;
  invitation_status: string | null;
}

/** The body of POST /api/v1/users, and of PUT (any subset). */
export interface UserDraft {
  email: string;
  name: string;
  role_id: string | null;
  group_ids: string[];
  /** E.164, for sms pages; null for none. */
  phone: string | null;
}

/** A role: built-in (id = name, read-only) or custom. */
export interface Role {
  id: string;
  name: string;
  description: string | null;
  permissions: PermissionGrants;
  built_in: boolean;
}

/** A group with its permissions and members (GET /api/v1/groups). */
export interface GroupDetail extends Group {
  description: string | null;
  permissions: PermissionGrants;
  member_ids: string[];
}

/** The body of POST and PUT /api/v1/roles and /api/v1/groups. */
export interface GrantHolderDraft {
  name: string;
  description: string;
  permissions: PermissionGrants;
}

/** Which level decided a permission (src/auth/effective-permissions.ts). */
export type DecidingLevel = 'user_override' | 'group' | 'role' | 'tenant_default' | 'none';

/** GET /api/v1/users/{id}/permissions: the effective set and, per permission, what decided it. */
export interface UserPermissions {
  user_id: string;
  is_active: boolean;
  allowed: Permission[];
  permissions: Record<Permission, { allowed: boolean; decided_by: DecidingLevel; sources: string[] }>;
}

/** GET /api/v1/tenant/permission-defaults. */
export interface TenantDefaults {
  permissions: PermissionGrants;
  updated_at: string | null;
}
// ---- end of People ----
/** A schedule's rotation layer as the API takes and answers it (SPEC.md, On-call schedule). */
export interface ScheduleLayer {
  user_ids: string[];
  rotation_type: 'daily' | 'weekly';
  /** ISO 8601; without an offset, a wall clock in the schedule's zone. */
  start_time: string;
}

export interface ScheduleOverrideDraft {
  user_id: string;
  start: string;
  end: string;
  reason: string | null;
}

/** POST /schedules, PUT /schedules/{id} and POST /schedules/preview take this. */
export interface ScheduleDraft {
  name: string;
  timezone: string;
  layers: ScheduleLayer[];
  overrides: ScheduleOverrideDraft[];
}

/** A schedule with everything the editor needs (the list answers this). */
export interface ScheduleDetail extends Schedule {
  layers: ScheduleLayer[];
  overrides: (ScheduleOverrideDraft & { id: string })[];
  updated_at: string;
}

/** POST /schedules/preview: the range answer of an unsaved schedule (an override named by its index). */
export interface SchedulePreview {
  since: string;
  until: string;
  segments: (OncallSegment & { layer?: number; override?: number })[];
}
// ---- Escalation preview (issue 30) ----
/** How a preview recipient is reached: a person's medium, or a channel's type. */
export type PreviewMedium = ChannelType | 'sms';

/** The policy target a recipient or an unreachable came from (name null once it no longer exists). */
export interface PreviewVia {
  type: TargetType;
  id: string;
  name: string | null;
}

export interface PreviewRecipient {
  person: { id: string; name: string } | null;
  channel: { id: string; name: string | null; type: ChannelType } | null;
  medium: PreviewMedium;
  /** Masked as deliveries mask it: `a***@example.com`, `+44*******123`, a chat channel's name. */
  address: string;
  delivery_target: string;
  via: PreviewVia;
  /** `member of group Ops`, `on call for schedule Primary via layer 0`, `notification channel ops chat`. */
  why: string;
  on_call: { source: 'layer' | 'override'; layer?: number; override_id?: string } | null;
}

export interface PreviewUnreachable {
  via: PreviewVia;
  person: { id: string; name: string } | null;
  medium: PreviewMedium | null;
  /** As NotificationFailed will record it, e.g. `the user has no phone number`. */
  reason: string;
}

export interface PreviewStage {
  stage_order: number;
  /** 0 for the first pass, then 1, 2 … for repeats. */
  cycle: number;
  fires_at: string;
  offset_minutes: number;
  recipients: PreviewRecipient[];
  unreachable: PreviewUnreachable[];
}

/** GET /escalation-policies/{id}/preview and POST /escalation-policies/preview (docs/escalation.md). */
export interface EscalationPreview {
  policy: { id: string | null; name: string };
  at: string;
  repeat_interval_minutes: number;
  stages: PreviewStage[];
  repeat: { interval_minutes: number; next_cycle: number; next_cycle_at: string; description: string } | null;
}
// ---- end of Escalation preview ----

// ---- Maintenance windows (issue 30) ----
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface WindowMatcher {
  all_rules: boolean;
  rule_ids: string[];
  cluster_ids: string[];
  severities: Severity[];
}

export interface WindowRecurrence {
  days: Weekday[];
  /** Local HH:MM in `time_zone`. */
  start_time: string;
  duration_minutes: number;
  time_zone: string;
}

/** What is sent: either `starts_at` and `ends_at`, or a `recurrence`. */
export interface MaintenanceWindowBody {
  name: string;
  reason: string;
  matcher: WindowMatcher;
  starts_at?: string;
  ends_at?: string;
  recurrence?: WindowRecurrence;
}

export interface MaintenanceWindow {
  id: string;
  name: string;
  reason: string;
  matcher: WindowMatcher;
  starts_at: string | null;
  ends_at: string | null;
  recurrence: WindowRecurrence | null;
  active: boolean;
  current_occurrence: { starts_at: string; ends_at: string } | null;
  next_change_at: string | null;
  ended_at: string | null;
  ended_by: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
}
// ---- end of Maintenance windows ----
// ---- Rule backtest (issue 30) ----
/** POST /alert-rules/backtest: an unsaved rule over a past range (docs/alert-rules-and-incidents.md, Backtesting a rule). */
export interface RuleBacktestRequest {
  rule: AlertRuleBody;
  since: string;
  until: string;
  include_readings: boolean;
}

export interface BacktestIncident {
  started_at: string;
  /** null: still open at `until`. */
  ended_at: string | null;
  peak_value: number;
  cluster_id: string | null;
  stages_fired: number | null;
  pages: number | null;
}

export interface RuleBacktest {
  rule: {
    id: string | null;
    metric: string;
    condition: string;
    threshold: number;
    evaluation_window_minutes: number;
    cluster_id: string | null;
    escalation_policy_id: string;
  };
  since: string;
  until: string;
  source: 'simulator' | 'sync_store';
  step_seconds: number;
  evaluations: number;
  breaches: number;
  missing_evaluations: number;
  silenced: number;
  silenced_by: { window_id: string; name: string; evaluations: number }[];
  incidents: BacktestIncident[];
  pages: number | null;
  gaps: { from: string; to: string }[];
  notes: string[];
  readings?: { at: string; value: number | null }[];
}
// ---- end of Rule backtest ----
// ---- Incident analytics (docs/analytics.md) ----
export type AnalyticsGroupBy = 'rule' | 'policy' | 'severity' | 'cluster' | 'day' | 'week';
export interface IncidentAnalyticsGroup {
  key: string | null;
  label: string | null;
  opened: number;
  acknowledged: number;
  resolved: { auto: number; manual: number; rule_deleted: number; rule_disabled: number; total: number };
  mtta_seconds: number | null;
  p90_tta_seconds: number | null;
  mttr_seconds: number | null;
  p90_ttr_seconds: number | null;
  escalated_to_stage_2: number;
  pages: Record<string, number>;
  failed_pages: number;
}
export interface IncidentAnalytics {
  since: string;
  until: string;
  group_by: AnalyticsGroupBy;
  tz: string;
  groups: IncidentAnalyticsGroup[];
  noisiest: {
    rule_id: string;
    rule_name: string;
    incidents: number;
    incidents_per_week: number;
    flapping: number;
    flapping_share: number;
  }[];
}
export interface OncallHealth {
  since: string;
  until: string;
  people: {
    user_id: string;
    name: string | null /** Only for a caller who also holds iam:read. */;
    email?: string | null;
    pages_received: number;
    pages_at_night: number;
    zones_used: { zone: string; source: string }[];
    hours_on_call: number;
  }[];
}
// ---- end of Incident analytics ----
