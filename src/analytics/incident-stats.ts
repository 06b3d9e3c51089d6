/**
 * Incident analytics, the math: the facts of the incidents opened in a range (the read model
 * `incidentAnalytics`) grouped by rule, policy, severity, cluster, local day or local week, and the
 * noisiest rules. Pure: the route reads the documents, this counts them.
 */
import type { IncidentFactsDoc } from '../../projections/incident-analytics.js';
import { RESOLUTION_REASONS } from '../events/incident.js';
import { NOTIFY_MEDIA } from '../events/vocabulary.js';
import { wallClockAt } from '../oncall/zone-offsets.js';

export const GROUP_BY = ['rule', 'policy', 'severity', 'cluster', 'source', 'day', 'week'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** Auto-resolved this soon after triggering: the rule flapped. */
export const FLAP_SECONDS = 300;
const NOISIEST_KEPT = 10;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export interface IncidentGroup {
  /**
   * The rule, policy or cluster id, the severity, the source, or the local date (a week: its Monday).
   * null: no cluster, or (by rule) incidents that had no rule.
   */
  key: string | null;
  /** The rule's name for `rule` (as of its latest incident in the range); else null. */
  label: string | null;
  opened: number;
  acknowledged: number;
  resolved: Record<(typeof RESOLUTION_REASONS)[number], number> & { total: number };
  mtta_seconds: number | null;
  p90_tta_seconds: number | null;
  mttr_seconds: number | null;
  p90_ttr_seconds: number | null;
  /** Escalations whose second stage (or a later one) fired. */
  escalated_to_stage_2: number;
  pages: Record<string, number>;
  failed_pages: number;
}

export interface NoisyRule {
  rule_id: string;
  rule_name: string;
  incidents: number;
  incidents_per_week: number;
  /** Auto-resolved within FLAP_SECONDS of triggering. */
  flapping: number;
  flapping_share: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const mean = (values: number[]) =>
  values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length, 1);
/** Nearest-rank percentile: the smallest value with at least p of the values at or below it. */
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
};
const secondsBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** The local date (YYYY-MM-DD) of an instant in a zone, and the Monday starting its ISO week. */
function localDay(instant: number, timeZone: string): string {
  return new Date(wallClockAt(timeZone, instant)).toISOString().slice(0, 10);
}
function localWeek(instant: number, timeZone: string): string {
  const wall = wallClockAt(timeZone, instant);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

function groupKey(doc: IncidentFactsDoc, groupBy: GroupBy, timeZone: string): string | null {
  switch (groupBy) {
    case 'rule':
      return doc.ruleId;
    case 'policy':
      return doc.policyId;
    case 'severity':
      return doc.severity;
    case 'cluster':
      return doc.clusterId;
    case 'source':
      return doc.source;
    case 'day':
      return localDay(Date.parse(doc.triggeredAt), timeZone);
    case 'week':
      return localWeek(Date.parse(doc.triggeredAt), timeZone);
  }
}

function summarise(key: string | null, docs: IncidentFactsDoc[], groupBy: GroupBy): IncidentGroup {
  const acknowledged = docs.filter((d) => d.acknowledgedAt !== null);
  const resolved = docs.filter((d) => d.resolvedAt !== null);
  const tta = acknowledged.map((d) => secondsBetween(d.triggeredAt, d.acknowledgedAt!));
  const ttr = resolved.map((d) => secondsBetween(d.triggeredAt, d.resolvedAt!));
  const byReason = Object.fromEntries(
    RESOLUTION_REASONS.map((reason) => [reason, resolved.filter((d) => d.resolutionReason === reason).length]),
  ) as IncidentGroup['resolved'];
  const pages: Record<string, number> = Object.fromEntries(NOTIFY_MEDIA.map((medium) => [medium, 0]));
  for (const doc of docs)
    for (const [medium, count] of Object.entries(doc.pagesPerMedium)) pages[medium] = (pages[medium] ?? 0) + count;
  return {
    key,
    label: groupBy === 'rule' ? docs[docs.length - 1]!.ruleName : null,
    opened: docs.length,
    acknowledged: acknowledged.length,
    resolved: { ...byReason, total: resolved.length },
    mtta_seconds: mean(tta),
    p90_tta_seconds: percentile(tta, 0.9),
    mttr_seconds: mean(ttr),
    p90_ttr_seconds: percentile(ttr, 0.9),
    escalated_to_stage_2: docs.filter((d) => d.maxStage >= 2).length,
    pages,
    failed_pages: docs.reduce((sum, d) => sum + d.failedPages, 0),
  };
}

/** The groups of the incidents opened in the range (`docs`, oldest first), in key order (null last). */
export function incidentGroups(docs: IncidentFactsDoc[], groupBy: GroupBy, timeZone: string): IncidentGroup[] {
  const groups = new Map<string | null, IncidentFactsDoc[]>();
  for (const doc of docs) {
    const key = groupKey(doc, groupBy, timeZone);
    const group = groups.get(key);
    if (group) group.push(doc);
    else groups.set(key, [doc]);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));
  return keys.map((key) => summarise(key, groups.get(key)!, groupBy));
}

/** The rules with the most incidents in the range (ties: the more flapping first, then by id). */
export function noisiestRules(docs: IncidentFactsDoc[], rangeMs: number): NoisyRule[] {
  const byRule = new Map<string, IncidentFactsDoc[]>();
  for (const doc of docs) {
    // Heartbeats, read failures and the platform are not rules: they are not among the noisiest rules.
    if (doc.ruleId === null) continue;
    const incidents = byRule.get(doc.ruleId);
    if (incidents) incidents.push(doc);
    else byRule.set(doc.ruleId, [doc]);
  }
  const weeks = rangeMs / WEEK_MS;
  return [...byRule.entries()]
    .map(([ruleId, incidents]) => {
      const flapping = incidents.filter(
        (d) =>
          d.resolutionReason === 'auto' &&
          d.resolvedAt !== null &&
          secondsBetween(d.triggeredAt, d.resolvedAt) <= FLAP_SECONDS,
      ).length;
      return {
        rule_id: ruleId,
        rule_name: incidents[incidents.length - 1]!.ruleName ?? incidents[incidents.length - 1]!.title,
        incidents: incidents.length,
        incidents_per_week: round(incidents.length / weeks, 2),
        flapping,
        flapping_share: round(flapping / incidents.length, 2),
      };
    })
    .sort((a, b) => b.incidents - a.incidents || b.flapping - a.flapping || (a.rule_id < b.rule_id ? -1 : 1))
    .slice(0, NOISIEST_KEPT);
}
