/**
 * The shapes the dashboard reads from the API (README: the resource sections). The answers are the
 * server's own zod answer schemas (src/contract/<area>.ts), their types imported type-only, so zod
 * is not bundled and an answer the console does not follow fails `npm run typecheck`.
 */
import type { Page } from '../../../contract/answer-pieces.js';
import type { HistoryEntry } from '../../../contract/event-history.js';
import type { EscalationPolicy } from '../../../contract/escalation-policies.js';
import type { PermissionGrants } from '../../../contract/iam.js';
import type { Incident } from '../../../contract/incidents.js';
import type { NotificationChannel } from '../../../contract/channels.js';
import type { WindowMatcher, WindowRecurrence } from '../../../contract/maintenance-windows.js';
import type { Schedule } from '../../../contract/schedules.js';
import type { ChannelType } from '../../../contract/vocabulary.js';

export type { Page } from '../../../contract/answer-pieces.js';
export type {
  Incident,
  IncidentAsOf,
  IncidentEscalationView,
  NotifiedDelivery,
  PendingEscalation,
} from '../../../contract/incidents.js';
export type {
  ChannelType,
  DeliveryChannel as PersonMedium,
  IncidentStatus,
  Severity,
  TargetType,
} from '../../../contract/vocabulary.js';
export type {
  CurrentOncall,
  OncallRange,
  OncallSegment,
  Schedule,
  Schedule as ScheduleDetail,
  SchedulePreview,
} from '../../../contract/schedules.js';
export type { EscalationPolicy, PolicyStage, PolicyTarget } from '../../../contract/escalation-policies.js';
export type { Permission } from '../../../contract/permissions.js';
export type {
  DecidingLevel,
  Group,
  Group as GroupDetail,
  Me,
  PermissionGrants,
  Role,
  TenantDefaults,
  User,
  UserName,
  UserPermissions,
} from '../../../contract/iam.js';

/** A schedule's rotation layer as the API takes and answers it (SPEC.md, On-call schedule). */
export type ScheduleLayer = Schedule['layers'][number];

/** The body of POST and PUT /escalation-policies and POST /escalation-policies/preview: the policy's own fields. */
export type EscalationPolicyDraft = Pick<
  EscalationPolicy,
  'name' | 'description' | 'stages' | 'repeat_interval_minutes'
>;
export type { ChannelTestAnswer, NotificationChannel, RotatedSecret } from '../../../contract/channels.js';
export type {
  AlertMetric,
  AlertRule,
  AlertRule as AlertRuleDetail,
  BacktestIncident,
  Evaluation,
  MetricReading,
  RuleBacktest,
} from '../../../contract/alert-rules.js';

/** A list as it comes when read 'bare': the envelope's data and the page's cursor. */
export interface ListPage<T> {
  data: T[];
  page: Page;
}

/** GET /api/v1/incidents as it comes (the envelope, with the page's cursor). */
export type IncidentListPage = ListPage<Incident>;

/** One event of an incident's raw history (GET /incidents/{id}/events), the fields the timeline reads. */
export type IncidentEvent = Pick<HistoryEntry, 'id' | 'type' | 'position' | 'occurred_at' | 'actor' | 'data'>;

/** The fields of a notification channel the incident page names deliveries with. */
export type ChannelName = Pick<NotificationChannel, 'id' | 'name' | 'type'>;

export type {
  SyncJob,
  SyncJobState,
  SyncJobStatus,
  SyncPurge,
  SyncRun,
  SyncStatus,
  SyncTriggered,
} from '../../../contract/sync.js';

export type {
  ClusterView,
  SlowQueriesView,
  SpillView,
  StorageView,
  TableAlertsView,
  VacuumView,
} from '../../../contract/warehouse.js';

export type { AssistantAnswer, AssistantToolUse } from '../../../contract/assistant.js';

export interface ChannelDraft {
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
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

/** The fields of an escalation policy a picker names it with. */
export type PolicyName = Pick<EscalationPolicy, 'id' | 'name'>;

// ---- People: users, roles, groups, permission overrides, tenant defaults (issue 29) ----

/** The body of POST /api/v1/users, and of PUT (any subset). */
export interface UserDraft {
  email: string;
  name: string;
  role_id: string | null;
  group_ids: string[];
  /** E.164, for sms pages; null for none. */
  phone: string | null;
}

/** The body of POST and PUT /api/v1/roles and /api/v1/groups. */
export interface GrantHolderDraft {
  name: string;
  description: string;
  permissions: PermissionGrants;
}

// ---- end of People ----
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

// ---- Escalation preview (issue 30) ----
export type { NotifyMedium as PreviewMedium } from '../../../contract/vocabulary.js';
export type {
  EscalationPreview,
  PreviewRecipient,
  PreviewStage,
  PreviewUnreachable,
  PreviewVia,
} from '../../../contract/escalation-preview.js';
// ---- end of Escalation preview ----

// ---- Maintenance windows (issue 30) ----
export type { Weekday } from '../../../contract/vocabulary.js';
export type {
  MaintenanceWindow,
  WindowMatcher,
  WindowRecurrence,
} from '../../../contract/maintenance-windows.js';

/** What is sent: either `starts_at` and `ends_at`, or a `recurrence`. */
export interface MaintenanceWindowBody {
  name: string;
  reason: string;
  matcher: WindowMatcher;
  starts_at?: string;
  ends_at?: string;
  recurrence?: WindowRecurrence;
}

// ---- end of Maintenance windows ----
// ---- Heartbeats (issue 38) ----
export type { Heartbeat, HeartbeatWithAddress } from '../../../contract/heartbeats.js';
import type { Severity as HeartbeatSeverity } from '../../../contract/vocabulary.js';

/** What is sent to create or replace a heartbeat. */
export interface HeartbeatBody {
  name: string;
  interval_seconds: number;
  grace_seconds: number;
  escalation_policy_id: string;
  severity: HeartbeatSeverity;
  enabled: boolean;
}
// ---- end of Heartbeats ----
// ---- Rule backtest (issue 30) ----
/** POST /alert-rules/backtest: an unsaved rule over a past range (docs/alert-rules-and-incidents.md, Backtesting a rule). */
export interface RuleBacktestRequest {
  rule: AlertRuleBody;
  since: string;
  until: string;
  include_readings: boolean;
}

// ---- end of Rule backtest ----
// ---- Incident analytics (docs/analytics.md) ----
export type AnalyticsGroupBy = 'rule' | 'policy' | 'severity' | 'cluster' | 'source' | 'day' | 'week';
export type { IncidentAnalytics, IncidentAnalyticsGroup, OncallHealth } from '../../../contract/analytics.js';
// ---- end of Incident analytics ----
