/**
 * The words the API and the console share, defined once and free of any library, so the server's
 * model (src/events/vocabulary.ts), its ports and the console's bundle (src/dashboard/web) all
 * import the same lists.
 */

/** A UUID of any version, as text (incident ids are v5, the other resources' v4). */
const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Every stored resource id is a UUID: the whole value, any case. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i');
export const isUuid = (value: string | undefined): value is string => value !== undefined && UUID_PATTERN.test(value);
/** Every UUID inside a text (for `String.replace`; a fresh RegExp each call, as global ones keep state). */
export const uuidsInText = () => new RegExp(UUID_SOURCE, 'gi');

/** How bad an alert is (SPEC.md, Alert rule severity); incidents copy it from their rule. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How a rule compares its metric with its threshold. */
export const CONDITIONS = ['gt', 'lt', 'gte', 'lte', 'eq'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** Notification channel types (SPEC.md, Notification channel). */
export const CHANNEL_TYPES = ['chat', 'email', 'pager', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What a page goes out through: a channel's type, or sms to a user's phone (users have no sms channel). */
export const NOTIFY_MEDIA = [...CHANNEL_TYPES, 'sms'] as const;
export type NotifyMedium = (typeof NOTIFY_MEDIA)[number];

/** What the pager Events API v2 accepts as a severity; a pager channel maps each alert severity onto one. */
export const PAGER_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type PagerSeverity = (typeof PAGER_SEVERITIES)[number];

/** Where an incident stands (SPEC.md, Incident). */
export const INCIDENT_STATUSES = ['triggered', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/**
 * What opened an incident: a rule's condition (`rule`), rules whose warehouse reads fail or return no
 * data (`rule_error`), a heartbeat that missed its ping or reported a failure (`heartbeat`), the
 * platform watching its own jobs (`platform`), or a person paging by hand (`manual`). Incidents recorded before sources existed are `rule`.
 */
export const INCIDENT_SOURCES = ['rule', 'rule_error', 'heartbeat', 'platform', 'manual'] as const;
export type IncidentSourceKind = (typeof INCIDENT_SOURCES)[number];
/**
 * An incident opened by a sender outside the platform names its integration: `integration:<id>`
 * (src/events/inbound-alert.ts). Lists filter on one integration, or on `integration` for all.
 */
export type IntegrationSource = `integration:${string}`;
export type IncidentSource = IncidentSourceKind | IntegrationSource;
export const INTEGRATION_SOURCE_PATTERN = new RegExp(`^integration:${UUID_SOURCE}$`, 'i');
export const isIntegrationSource = (source: string): source is IntegrationSource =>
  INTEGRATION_SOURCE_PATTERN.test(source);

/** Why an incident was resolved; `rule_disabled` was added later (old events read unchanged). */
export const RESOLUTION_REASONS = ['auto', 'manual', 'rule_deleted', 'rule_disabled'] as const;
export type ResolutionReason = (typeof RESOLUTION_REASONS)[number];

/** What a delivery of an incident's escalation was: a stage's page, or the all-clear or acknowledgement notice. */
export const DELIVERY_KINDS = ['stage', 'resolution', 'acknowledgement'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** Where an incident's escalation stands. */
export const ESCALATION_STATUSES = ['pending', 'running', 'not_started', 'cancelled'] as const;
export type EscalationStatus = (typeof ESCALATION_STATUSES)[number];
/** SPEC.md: acknowledgement and resolution cancel the escalation job. */
export const ESCALATION_CANCEL_REASONS = ['acknowledged', 'resolved'] as const;
export type EscalationCancelReason = (typeof ESCALATION_CANCEL_REASONS)[number];

/**
 * What one evaluation of a rule came to (src/events/rule-evaluation.ts says when each is recorded);
 * `silenced` was added with maintenance windows, `no_data` (the warehouse answered with no value)
 * with the error and no-data states.
 */
export const EVALUATION_OUTCOMES = [
  'triggered',
  'resolved',
  'unchanged',
  'ok',
  'error',
  'no_data',
  'pending',
  'silenced',
] as const;
export type EvaluationOutcome = (typeof EVALUATION_OUTCOMES)[number];

/**
 * What a rule does while its metric cannot be read (`on_error`) or the warehouse answers with no
 * value (`on_no_data`), as Grafana Alerting's error and no-data states: `alerting` pages through the
 * rule's policy once the failure has lasted `error_for_minutes` (one incident per environment,
 * cluster and policy), `ok` and `keep_last` page nobody and leave the rule's own incident as it is
 * (docs/alert-rules-and-incidents.md, Read failures, has the state table).
 */
export const READ_FAILURE_STATES = ['alerting', 'ok', 'keep_last'] as const;
export type ReadFailureState = (typeof READ_FAILURE_STATES)[number];
/** What a new rule does while its reads fail or have no data (docs/alert-rules-and-incidents.md). */
export const RULE_READ_FAILURE_DEFAULT = { onError: 'alerting', onNoData: 'alerting', errorForMinutes: 5 } as const;

/** Which metric history a backtest replays: the relational store's mirror, or the simulator's. */
export const HISTORY_SOURCES = ['sync_store', 'simulator'] as const;
export type HistorySourceName = (typeof HISTORY_SOURCES)[number];

/** A rule's health: `failing` while its latest evaluation failed. */
export const RULE_HEALTH = ['ok', 'failing'] as const;
export type RuleHealth = (typeof RULE_HEALTH)[number];

/** What an escalation policy's target names, and how a person target is reached. */
export const TARGET_TYPES = ['user', 'group', 'schedule', 'channel'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export const DELIVERY_CHANNELS = ['email', 'sms', 'chat'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** How a schedule layer rotates. */
export const ROTATION_TYPES = ['daily', 'weekly'] as const;
export type RotationType = (typeof ROTATION_TYPES)[number];

/** Where a stretch of on-call comes from: a layer of the schedule, or an override. */
export const ON_CALL_SOURCES = ['layer', 'override'] as const;
export type OnCallSourceKind = (typeof ON_CALL_SOURCES)[number];

/** The days a weekly maintenance window recurs on. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The built-in sync jobs: each copies one warehouse source into the table of the same name. */
export const SYNC_JOB_IDS = [
  'query_history',
  'table_storage',
  'cluster_metrics',
  'wlm_queue_stats',
  'alert_events',
] as const;
export type SyncJobId = (typeof SYNC_JOB_IDS)[number];
