import { ESCALATION_EVENT_TYPES, type EscalationEvent } from '../src/events/escalation.js';
import type { IncidentEvent } from '../src/events/incident.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * One stage page that reached an outcome: who, by what, when, through which policy target. Kept in
 * `incidentPages`, one document each, so on-call health reads the pages of a range by their own time.
 */
export interface PageFact {
  /** `user:<id>` or `channel:<id>` (null: the delivery named nobody). */
  recipient: string | null;
  medium: string | null;
  /** The policy target that led to the recipient (a schedule's zone says when its night is). */
  viaType: string | null;
  viaId: string | null;
  at: string;
  ok: boolean;
}

export interface PageDoc extends PageFact {
  /** `<incidentId>:<revision of the outcome event in the incident's stream>`: the same on every rebuild. */
  id: string;
  tenantId: string;
  incidentId: string;
  [field: string]: unknown;
}

/**
 * Read model `incidentAnalytics`: the facts of one incident an analyst aggregates (who, what, when,
 * how it ended, how far it escalated, how many pages), one document per incident, indexed by
 * (tenantId, triggeredAt) so a range query is one tenant-filtered indexed read. Its pages are in
 * `incidentPages`, indexed by (tenantId, at).
 */
export interface IncidentFactsDoc {
  id: string;
  tenantId: string;
  /** `rule`, `rule_error`, `heartbeat`, `platform` (src/contract/vocabulary.ts INCIDENT_SOURCES). */
  source: string;
  /** null: the incident had no rule (its source is not `rule`). */
  ruleId: string | null;
  ruleName: string | null;
  title: string;
  policyId: string;
  severity: string;
  clusterId: string | null;
  triggeredAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  /** auto, manual, rule_deleted, rule_disabled (src/events/incident.ts RESOLUTION_REASONS). */
  resolutionReason: string | null;
  /** The stage orders of the policy as snapshotted when the escalation started, ascending. */
  stageOrders: number[];
  /** The furthest stage fired, counted from 1 in the policy's order (0: none fired). */
  maxStage: number;
  /** Stage pages delivered, per medium. */
  pagesPerMedium: Record<string, number>;
  /** Stage pages whose final outcome was a failure (retries are not counted until they end). */
  failedPages: number;
  revision: number;
  [field: string]: unknown;
}

export const INCIDENT_ANALYTICS = 'incidentAnalytics';
export const INCIDENT_PAGES = 'incidentPages';

/** The stage's rank (1 = first) in the policy's order; an order outside the snapshot counts as itself. */
const stageRank = (stageOrders: number[], stageOrder: number) => {
  const index = stageOrders.indexOf(stageOrder);
  return index >= 0 ? index + 1 : stageOrder;
};

/** Instants as toISOString writes them (milliseconds, Z), so the indexes order them as time does. */
const canonical = (instant: string) => new Date(instant).toISOString();

/** The page an outcome event records (null: not a stage page). */
function pageOf(event: IncidentEvent | EscalationEvent, tenantId: string, revision: number): PageDoc | null {
  if (event.type !== 'NotificationDelivered' && event.type !== 'NotificationFailed') return null;
  const d = event.data;
  if (d.kind !== 'stage') return null;
  return {
    id: `${d.incidentId}:${revision}`,
    tenantId,
    incidentId: d.incidentId,
    recipient: d.recipientKey,
    medium: d.medium,
    viaType: d.via?.type ?? null,
    viaId: d.via?.id ?? null,
    at: canonical(d.at),
    ok: event.type === 'NotificationDelivered',
  };
}

/** The document after one event (null: the event does not concern a known incident). */
export function evolveIncidentFacts(
  doc: IncidentFactsDoc | null,
  event: IncidentEvent | EscalationEvent,
  tenantId: string,
  revision: number,
): IncidentFactsDoc | null {
  if (event.type === 'IncidentTriggered') {
    const d = event.data;
    return {
      id: d.incidentId,
      tenantId,
      source: d.source ?? 'rule',
      ruleId: d.ruleId,
      ruleName: d.ruleName,
      title: d.title ?? d.ruleName ?? 'Incident',
      policyId: d.escalationPolicyId,
      severity: d.severity,
      clusterId: d.clusterId,
      triggeredAt: canonical(d.triggeredAt),
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
      resolutionReason: null,
      stageOrders: [],
      maxStage: 0,
      pagesPerMedium: {},
      failedPages: 0,
      revision,
    };
  }
  if (!doc) return null;
  const next = { ...doc, revision };
  switch (event.type) {
    case 'IncidentAcknowledged':
      return doc.acknowledgedAt ? next : { ...next, acknowledgedAt: event.data.at, acknowledgedBy: event.data.by };
    case 'IncidentResolved':
      return { ...next, resolvedAt: event.data.at, resolvedBy: event.data.by, resolutionReason: event.data.reason };
    case 'EscalationStarted':
      return { ...next, stageOrders: event.data.stages.map((s) => s.stageOrder).sort((a, b) => a - b) };
    case 'EscalationStageFired':
      return { ...next, maxStage: Math.max(doc.maxStage, stageRank(doc.stageOrders, event.data.stageOrder)) };
    case 'NotificationDelivered':
    case 'NotificationFailed': {
      const d = event.data;
      if (d.kind !== 'stage') return next;
      const ok = event.type === 'NotificationDelivered';
      const medium = d.medium ?? 'unknown';
      return {
        ...next,
        pagesPerMedium: ok
          ? { ...doc.pagesPerMedium, [medium]: (doc.pagesPerMedium[medium] ?? 0) + 1 }
          : doc.pagesPerMedium,
        failedPages: doc.failedPages + (ok ? 0 : 1),
      };
    }
    default:
      return next;
  }
}

export const incidentAnalyticsProjection: Projection = {
  name: 'incidentAnalytics',
  // 2: source and title (incidents opened by heartbeats, read failures and the platform itself).
  version: 2,
  handles: ['IncidentTriggered', 'IncidentAcknowledged', 'IncidentResolved', ...ESCALATION_EVENT_TYPES],
  collections: {
    [INCIDENT_ANALYTICS]: [{ name: 'tenant_triggered', fields: ['tenantId', 'triggeredAt', 'id'] }],
    [INCIDENT_PAGES]: [{ name: 'tenant_at', fields: ['tenantId', 'at', 'id'] }],
  },
  async apply(event, writer) {
    const current = await writer.get<IncidentFactsDoc>(INCIDENT_ANALYTICS, String(event.data.incidentId));
    const domainEvent = { type: event.type, data: event.data } as IncidentEvent | EscalationEvent;
    const next = evolveIncidentFacts(current, domainEvent, event.metadata.tenantId, Number(event.revision));
    if (!next) return;
    await writer.upsert(INCIDENT_ANALYTICS, next);
    const page = pageOf(domainEvent, event.metadata.tenantId, Number(event.revision));
    if (page) await writer.upsert(INCIDENT_PAGES, page);
  },
};
