/**
 * The shapes the dashboard reads from the API and sends to it (README: the resource sections). The
 * answers are the server's own zod answer schemas (src/contract/<area>.ts), the request bodies the
 * schemas its routes parse with (src/contract/bodies/<area>.ts; `z.input`: what a client sends,
 * before defaults and transforms), their types imported type-only, so zod is not bundled and an
 * answer or a body the console does not follow fails `npm run typecheck`.
 */
import type { z } from 'zod';
import type { Page } from '../../../contract/answer-pieces.js';
import type { HistoryEntry } from '../../../contract/event-history.js';
import type { EscalationPolicy } from '../../../contract/escalation-policies.js';
import type { Incident } from '../../../contract/incidents.js';
import type { NotificationChannel } from '../../../contract/channels.js';
import type { Schedule } from '../../../contract/schedules.js';
import type {
  alertRuleBacktestBody,
  alertRuleBodySchema,
  alertRulePatchSchema,
} from '../../../contract/bodies/alert-rules.js';
import type { askBodySchema } from '../../../contract/bodies/assistant.js';
import type { channelBodySchema, channelChangeBodySchema } from '../../../contract/bodies/channels.js';
import type { escalationPolicyBodySchema } from '../../../contract/bodies/escalation-policies.js';
import type {
  createUserBodySchema,
  grantHolderBodySchema,
  patchUserBodySchema,
  permissionsBodySchema,
} from '../../../contract/bodies/iam.js';
import type {
  acknowledgeIncidentBodySchema,
  incidentNoteBodySchema,
  resolveIncidentBodySchema,
} from '../../../contract/bodies/incidents.js';
import type { maintenanceWindowBodySchema } from '../../../contract/bodies/maintenance-windows.js';
import type { overrideBodySchema, scheduleBodySchema } from '../../../contract/bodies/schedules.js';
import type { triggerBodySchema } from '../../../contract/bodies/sync.js';
import type { heartbeatBodySchema } from '../../../contract/bodies/heartbeats.js';
import type { integrationBodySchema, rotateRoutingKeyBodySchema } from '../../../contract/bodies/integrations.js';
import type { manualIncidentBodySchema } from '../../../contract/bodies/incidents.js';

export type { Deleted, Page } from '../../../contract/answer-pieces.js';
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
  PermissionOverrides,
  Role,
  TenantDefaults,
  User,
  UserName,
  UserPermissions,
} from '../../../contract/iam.js';

/** A schedule's rotation layer as the API takes and answers it (SPEC.md, On-call schedule). */
export type ScheduleLayer = Schedule['layers'][number];

/** The body of POST and PUT /escalation-policies and POST /escalation-policies/preview: the policy's own fields. */
export type EscalationPolicyDraft = z.input<typeof escalationPolicyBodySchema>;
export type { ChannelTestAnswer, NotificationChannel, RotatedSecret } from '../../../contract/channels.js';
export type {
  AlertMetric,
  AlertRule,
  AlertRule as AlertRuleDetail,
  AlertRuleDeleted,
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

/** The small bodies: acknowledge, resolve and note an incident, trigger a sync, ask the assistant. */
export type AcknowledgeBody = z.input<typeof acknowledgeIncidentBodySchema>;
export type ResolveBody = z.input<typeof resolveIncidentBodySchema>;
export type NoteBody = z.input<typeof incidentNoteBodySchema>;
export type SyncTriggerBody = z.input<typeof triggerBodySchema>;
export type AskBody = z.input<typeof askBodySchema>;

/** GET /api/v1/incidents as it comes (the envelope, with the page's cursor). */
export type IncidentListPage = ListPage<Incident>;

/** One event of an incident's raw history (GET /incidents/{id}/events), the fields the timeline reads. */
export type IncidentEvent = Pick<HistoryEntry, 'id' | 'type' | 'position' | 'occurred_at' | 'actor' | 'data'>;

/** The fields of a notification channel the incident page names deliveries with. */
export type ChannelName = Pick<NotificationChannel, 'id' | 'name' | 'type'>;

export type {
  SyncJob,
  SyncJobAlerting,
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

/** The body of POST /api/v1/notification-channels; PUT takes any non-empty subset of it. */
export type ChannelDraft = z.input<typeof channelBodySchema>;
export type ChannelChange = z.input<typeof channelChangeBodySchema>;

/** The body of POST and PUT /api/v1/alert-rules; PATCH takes any subset of it. */
export type AlertRuleBody = z.input<typeof alertRuleBodySchema>;
export type AlertRulePatch = z.input<typeof alertRulePatchSchema>;

/** The fields of an escalation policy a picker names it with. */
export type PolicyName = Pick<EscalationPolicy, 'id' | 'name'>;

// ---- People: users, roles, groups, permission overrides, tenant defaults (issue 29) ----

/** The body of POST /api/v1/users; PUT takes any non-empty subset of it. */
export type UserDraft = z.input<typeof createUserBodySchema>;
export type UserChange = z.input<typeof patchUserBodySchema>;

/** The body of POST and PUT /api/v1/roles and /api/v1/groups. */
export type GrantHolderDraft = z.input<typeof grantHolderBodySchema>;

/** The body of PUT /users/{id}/permission-overrides and PUT /tenant/permission-defaults. */
export type PermissionsBody = z.input<typeof permissionsBodySchema>;

// ---- end of People ----
export type ScheduleOverrideDraft = z.input<typeof overrideBodySchema>;

/** POST /schedules, PUT /schedules/{id} and POST /schedules/preview take this. */
export type ScheduleDraft = z.input<typeof scheduleBodySchema>;

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
export type MaintenanceWindowBody = z.input<typeof maintenanceWindowBodySchema>;

// ---- end of Maintenance windows ----
// ---- Heartbeats (issue 38) ----
export type { Heartbeat, HeartbeatWithAddress } from '../../../contract/heartbeats.js';
/** What is sent to create or replace a heartbeat. */
export type HeartbeatBody = z.input<typeof heartbeatBodySchema>;
// ---- end of Heartbeats ----

// ---- Integrations and paging by hand (issue 40) ----
export type { Integration, IntegrationWithKey } from '../../../contract/integrations.js';
export type { IntegrationKind } from '../../../contract/bodies/integrations.js';
/** What is sent to create or replace an integration. */
export type IntegrationBody = z.input<typeof integrationBodySchema>;
/** What is sent to rotate an integration's routing key. */
export type RotateRoutingKeyBody = z.input<typeof rotateRoutingKeyBodySchema>;
/** What is sent to page by hand (POST /incidents). */
export type ManualIncidentBody = z.input<typeof manualIncidentBodySchema>;
// ---- end of Integrations ----
// ---- Rule backtest (issue 30) ----
/** POST /alert-rules/backtest: an unsaved rule over a past range (docs/alert-rules-and-incidents.md, Backtesting a rule). */
export type RuleBacktestRequest = z.input<typeof alertRuleBacktestBody>;

// ---- end of Rule backtest ----
// ---- Incident analytics (docs/analytics.md) ----
export type AnalyticsGroupBy = 'rule' | 'policy' | 'severity' | 'cluster' | 'source' | 'day' | 'week';
export type { IncidentAnalytics, IncidentAnalyticsGroup, OncallHealth } from '../../../contract/analytics.js';
// ---- end of Incident analytics ----
