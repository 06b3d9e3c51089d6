/**
 * Incidents, the model: events of the `incident-<id>` streams (the whole story of one incident,
 * for auditors), the incident as it stands, and `evolveIncident`, which is at once the decider's
 * fold, the projection's fold and the auditors' as-of view, so the three can never disagree.
 *
 *   triggered ──acknowledge──► acknowledged ──resolve──► resolved
 *       └──────────────────resolve──────────────────────────┘
 */
import { z } from 'zod';
import type { Incident } from '../contract/incidents.js';
import {
  type Condition,
  INCIDENT_SOURCES,
  type IncidentSource,
  type IncidentStatus,
  RESOLUTION_REASONS,
  type ResolutionReason,
  type Severity,
} from '../contract/vocabulary.js';
import { deterministicUuid } from './deterministic-id.js';
import {
  awaitingAcknowledgement,
  awaitingAllClear,
  cancelEscalation,
  evolveEscalation,
  initialEscalation,
  liveRetries,
  nextDueStage,
  type EscalationEvent,
  type IncidentEscalation,
} from './escalation.js';
import { senderFieldsSchema, type SenderFields } from './inbound-alert.js';
import { conditionSchema, severitySchema } from './vocabulary.js';

export { INCIDENT_SOURCES, type IncidentSource, RESOLUTION_REASONS, type ResolutionReason };

export const incidentEvents = {
  IncidentTriggered: z.object({
    incidentId: z.uuid(),
    /**
     * What opened it (absent in events recorded before sources existed: a rule). A rule incident
     * carries the rule's fields; the other sources have no rule, no reading and no threshold (null).
     */
    source: z.union([z.enum(INCIDENT_SOURCES), z.templateLiteral(['integration:', z.uuid()])]).optional(),
    /**
     * What the incident is about, the same for each of its incidents: a rule's id, or a key its
     * source makes (`heartbeat:<id>`, `rule_error:<env>:<cluster>:<policy>`, `platform:<cause>`).
     * Absent: the rule id. The n-th incident of a subject has a fixed id (incidentIdFor).
     */
    subject: z.string().min(1).max(400).optional(),
    /** A human headline (absent: the rule's name); an Events API v2 summary is up to 1024 characters. */
    title: z.string().max(1024).optional(),
    /** Why, in the source's words: the warehouse's message, the heartbeat's failure note (absent: none). */
    detail: z.string().max(2000).nullable().optional(),
    /** The rules concerned when the source is not one rule (`rule_error`: every rule whose read failed). */
    ruleIds: z.array(z.uuid()).max(10_000).optional(),
    ruleId: z.uuid().nullable(),
    ruleName: z.string().nullable(),
    /** 1 for the subject's first incident, 2 for the next…; the incident id is derived from it. */
    ordinal: z.number().int().min(1),
    currentValue: z.number().nullable(),
    severity: severitySchema,
    metric: z.string().nullable(),
    condition: conditionSchema.nullable(),
    threshold: z.number().nullable(),
    envId: z.uuid().nullable(),
    clusterId: z.string().nullable(),
    escalationPolicyId: z.uuid(),
    triggeredAt: z.iso.datetime(),
    /** The sender's dedup key (an integration's incident; absent: none). */
    dedupKey: z.string().min(1).max(255).optional(),
    /** What the sender said beside the headline (an integration's incident; absent: none). */
    sender: senderFieldsSchema.optional(),
  }),
  IncidentAcknowledged: z.object({ incidentId: z.uuid(), by: z.string(), at: z.iso.datetime() }),
  IncidentResolved: z.object({
    incidentId: z.uuid(),
    by: z.string(),
    at: z.iso.datetime(),
    reason: z.enum(RESOLUTION_REASONS),
    note: z.string().nullable(),
    /** The metric value that cleared the condition (automatic resolution). */
    value: z.number().nullable(),
  }),
  IncidentNoteAdded: z.object({
    incidentId: z.uuid(),
    noteId: z.uuid(),
    text: z.string(),
    by: z.string(),
    at: z.iso.datetime(),
  }),
};

type Data<K extends keyof typeof incidentEvents> = z.infer<(typeof incidentEvents)[K]>;
export type IncidentEvent = {
  [K in keyof typeof incidentEvents]: { type: K; data: Data<K> };
}[keyof typeof incidentEvents];
export type IncidentTriggeredData = Data<'IncidentTriggered'>;

export type { IncidentStatus };

export interface IncidentNote {
  id: string;
  text: string;
  author: string;
  created_at: string;
}

/** The incident as clients see it (snake_case, as the API answers). */
export interface IncidentView {
  id: string;
  source: IncidentSource;
  /** What the incident is about (see IncidentTriggered.subject); queryable, so a source finds its open one. */
  subject: string;
  title: string;
  detail: string | null;
  rule_ids: string[];
  rule_id: string | null;
  rule_name: string | null;
  status: IncidentStatus;
  severity: Severity;
  current_value: number | null;
  metric: string | null;
  condition: Condition | null;
  threshold: number | null;
  env_id: string | null;
  cluster_id: string | null;
  escalation_policy_id: string;
  triggered_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution_reason: ResolutionReason | null;
  resolution_note: string | null;
  resolution_value: number | null;
  notes: IncidentNote[];
  ordinal: number;
  /** The sender's dedup key (an integration's incident), else null. */
  dedup_key: string | null;
  /** How many triggers of the key it has taken: 1, and one more per repeat while it is open. */
  alert_count: number;
  /** When the last trigger of it arrived (its opening, or the last repeat). */
  last_alert_at: string;
  /** What the sender said beside the headline (an integration's incident), else null. */
  sender: SenderFields | null;
  /** The escalation's own state (src/events/escalation.ts); the API shows a summary of it. */
  escalation: IncidentEscalation;
  /** When the next stage is due while the incident is triggered (null otherwise); queryable. */
  next_escalation_at: string | null;
  /** When the next delivery retry is due (null: none waiting); queryable, so a restart finds it. Not in answers. */
  next_delivery_retry_at?: string | null;
  /**
   * Acknowledged with a pager not yet told, or resolved with someone paged who has not had the
   * all-clear (and no retry waiting): queryable, so a start finds an incident resolved while no
   * instance ran, or whose owner died before telling. Not in answers.
   */
  notices_pending?: boolean;
}

export type IncidentState = { exists: false } | ({ exists: true } & IncidentView);

/** Every incident's stream name starts with this (subscribers filter the log on it). */
export const INCIDENT_STREAM_PREFIX = 'incident-';
export const incidentStream = (id: string) => `${INCIDENT_STREAM_PREFIX}${id}`;
/**
 * A subject's n-th incident always has the same id (see deterministicUuid): two instances that both
 * decide to open it append to the same new stream, and only one append expecting no stream succeeds.
 * A rule's subject is its id, so rule incidents keep the ids they had before sources existed.
 */
export const incidentIdFor = (subject: string, ordinal: number) => deterministicUuid(`incident:${subject}:${ordinal}`);

/** The headline of an incident whose event carries none: its rule's name. */
const defaultTitle = (d: IncidentTriggeredData) => d.title ?? d.ruleName ?? 'Incident';

/** Every event of an incident's stream: its own and its escalation's. */
export type IncidentStreamEvent = IncidentEvent | EscalationEvent;

export function evolveIncident(state: IncidentState, event: IncidentStreamEvent): IncidentState {
  const next = evolveIncidentFacts(state, event);
  if (!next.exists) return next;
  const { plan, lastFired } = next.escalation;
  // Held by a maintenance window: nothing is due until it resumes.
  const due = next.status === 'triggered' && plan && !next.escalation.heldBy ? nextDueStage(plan, lastFired) : null;
  const nextEscalationAt = due ? new Date(due.dueAt).toISOString() : null;
  const nextRetryAt =
    liveRetries(next.status, next.escalation)
      .map((r) => r.retryAt)
      .sort()[0] ?? null;
  const noticesPending =
    (next.status === 'acknowledged' && awaitingAcknowledgement(next.escalation).length > 0) ||
    (next.status === 'resolved' && awaitingAllClear(next.escalation).length > 0);
  if (
    next.next_escalation_at === nextEscalationAt &&
    (next.next_delivery_retry_at ?? null) === nextRetryAt &&
    (next.notices_pending ?? false) === noticesPending
  )
    return next;
  return {
    ...next,
    next_escalation_at: nextEscalationAt,
    next_delivery_retry_at: nextRetryAt,
    notices_pending: noticesPending,
  };
}

function evolveIncidentFacts(state: IncidentState, event: IncidentStreamEvent): IncidentState {
  switch (event.type) {
    case 'IncidentTriggered': {
      const d = event.data;
      return {
        exists: true,
        id: d.incidentId,
        source: d.source ?? 'rule',
        subject: d.subject ?? d.ruleId ?? d.incidentId,
        title: defaultTitle(d),
        detail: d.detail ?? null,
        rule_ids: d.ruleIds ?? (d.ruleId ? [d.ruleId] : []),
        rule_id: d.ruleId,
        rule_name: d.ruleName,
        status: 'triggered',
        severity: d.severity,
        current_value: d.currentValue,
        metric: d.metric,
        condition: d.condition,
        threshold: d.threshold,
        env_id: d.envId,
        cluster_id: d.clusterId,
        escalation_policy_id: d.escalationPolicyId,
        triggered_at: d.triggeredAt,
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: null,
        resolved_by: null,
        resolution_reason: null,
        resolution_note: null,
        resolution_value: null,
        notes: [],
        ordinal: d.ordinal,
        dedup_key: d.dedupKey ?? null,
        alert_count: 1,
        last_alert_at: d.triggeredAt,
        sender: d.sender ?? null,
        escalation: initialEscalation(),
        next_escalation_at: null,
      };
    }
    case 'IncidentAcknowledged':
      return state.exists
        ? {
            ...state,
            status: 'acknowledged',
            acknowledged_at: event.data.at,
            acknowledged_by: event.data.by,
            escalation: cancelEscalation(state.escalation, 'acknowledged'),
          }
        : state;
    case 'IncidentResolved':
      return state.exists
        ? {
            ...state,
            status: 'resolved',
            resolved_at: event.data.at,
            resolved_by: event.data.by,
            resolution_reason: event.data.reason,
            resolution_note: event.data.note,
            resolution_value: event.data.value,
            escalation: cancelEscalation(state.escalation, 'resolved'),
          }
        : state;
    case 'IncidentNoteAdded':
      return state.exists
        ? {
            ...state,
            notes: [
              ...state.notes,
              { id: event.data.noteId, text: event.data.text, author: event.data.by, created_at: event.data.at },
            ],
          }
        : state;
    default:
      return state.exists ? { ...state, escalation: evolveEscalation(state.escalation, event) } : state;
  }
}

export const initialIncidentState = (): IncidentState => ({ exists: false });

/** The incident as clients see it: its facts, and a summary of its escalation (the stream holds the rest). */
export function publicIncident({
  escalation,
  next_delivery_retry_at: _retryAt,
  notices_pending: _notices,
  subject: _subject,
  ...view
}: IncidentView): Incident {
  return {
    ...view,
    escalation: {
      status: escalation.status,
      cancel_reason: escalation.cancelReason ?? null,
      held_by_window_id: escalation.heldBy ?? null,
      policy_name: escalation.plan?.policyName ?? null,
      current_stage: escalation.lastFired
        ? {
            stage_order: escalation.lastFired.stageOrder,
            cycle: escalation.lastFired.cycle,
            fired_at: escalation.lastFired.firedAt,
          }
        : null,
      notified: escalation.notified,
    },
  };
}
