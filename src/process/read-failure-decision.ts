/**
 * Error and no-data states of a rule, pure (docs/alert-rules-and-incidents.md, Read failures):
 * whether a rule whose read failed this evaluation pages, and how the paging rules of one tick
 * group into the incidents of their clusters' read failures.
 *
 * A read failure never changes the rule's own incident (a failure says nothing about the
 * condition). With `alerting`, once reads have failed without a break for `error_for_minutes`, the
 * rule joins its cluster's read-failure incident: one per (environment, cluster, escalation policy),
 * because the rules of a cluster fail together (their reads are shared) and fifty pages for one
 * paused cluster would bury the one that matters.
 */
import { SEVERITIES, type ReadFailureState, type Severity } from '../events/vocabulary.js';

export type ReadFailure = 'error' | 'no_data';

export interface ReadFailureSettings {
  onError: ReadFailureState;
  onNoData: ReadFailureState;
  errorForMinutes: number;
}

/** `none`: nothing to page for; `waiting`: failing, not yet for `error_for_minutes`; `alerting`: pages. */
export type ReadFailureVerdict = 'none' | 'waiting' | 'alerting';

/**
 * @param failure what this evaluation's read came to (null: a reading)
 * @param failingSince when the rule's unbroken run of failed reads began, before this evaluation (null: it had none)
 */
export function readFailureVerdict(
  settings: ReadFailureSettings,
  failure: ReadFailure | null,
  failingSince: string | null,
  now: Date,
): ReadFailureVerdict {
  if (failure === null) return 'none';
  const state = failure === 'error' ? settings.onError : settings.onNoData;
  // `ok` and `keep_last` page nobody: the rule stays as it was (see the module comment).
  if (state !== 'alerting') return 'none';
  const since = failingSince === null ? now.getTime() : Date.parse(failingSince);
  return now.getTime() - since >= settings.errorForMinutes * 60_000 ? 'alerting' : 'waiting';
}

/** A rule that pages for its read failure this tick. */
export interface PagingRule {
  tenantId: string;
  ruleId: string;
  envId: string;
  clusterId: string | null;
  escalationPolicyId: string;
  severity: Severity;
  failure: ReadFailure;
  /** The warehouse's message. */
  message: string;
}

/** One cluster's read failure, as the incident that pages for it. */
export interface ReadFailureGroup {
  tenantId: string;
  subject: string;
  envId: string;
  clusterId: string | null;
  escalationPolicyId: string;
  severity: Severity;
  ruleIds: string[];
  title: string;
  detail: string;
}

const SUBJECT_PREFIX = 'rule_error:';

/** The read-failure incident's subject of (environment, cluster, policy); an environment's only cluster is the empty name. */
export const readFailureSubject = (envId: string, clusterId: string | null, escalationPolicyId: string) =>
  `${SUBJECT_PREFIX}${envId}:${clusterId ?? ''}:${escalationPolicyId}`;

/** The group a read-failure subject names (environment and policy are UUIDs, so the cluster is what lies between). */
export function groupOfSubject(
  subject: string,
): { envId: string; clusterId: string | null; escalationPolicyId: string } | null {
  if (!subject.startsWith(SUBJECT_PREFIX)) return null;
  const rest = subject.slice(SUBJECT_PREFIX.length);
  const first = rest.indexOf(':');
  const last = rest.lastIndexOf(':');
  if (first < 0 || last <= first) return null;
  const cluster = rest.slice(first + 1, last);
  return {
    envId: rest.slice(0, first),
    clusterId: cluster === '' ? null : cluster,
    escalationPolicyId: rest.slice(last + 1),
  };
}

const highest = (severities: readonly Severity[]) =>
  SEVERITIES.find((severity) => severities.includes(severity)) ?? SEVERITIES.at(-1)!;

/** At most this many distinct warehouse messages in one incident's detail (one cause usually says it all). */
const MAX_MESSAGES = 3;

/** The paging rules grouped by (tenant, environment, cluster, policy), rules and messages in a stable order. */
export function groupReadFailures(rules: readonly PagingRule[]): ReadFailureGroup[] {
  const groups = new Map<string, PagingRule[]>();
  for (const rule of rules) {
    const key = `${rule.tenantId}/${readFailureSubject(rule.envId, rule.clusterId, rule.escalationPolicyId)}`;
    groups.set(key, [...(groups.get(key) ?? []), rule]);
  }
  return [...groups.values()].map((members) => {
    const sorted = [...members].sort((a, b) => a.ruleId.localeCompare(b.ruleId));
    const { tenantId, envId, clusterId, escalationPolicyId } = sorted[0]!;
    const where = clusterId === null ? `The warehouse of environment ${envId}` : `Cluster ${clusterId}`;
    const noDataOnly = sorted.every((rule) => rule.failure === 'no_data');
    const messages = [...new Set(sorted.map((rule) => rule.message))];
    return {
      tenantId,
      subject: readFailureSubject(envId, clusterId, escalationPolicyId),
      envId,
      clusterId,
      escalationPolicyId,
      severity: highest(sorted.map((rule) => rule.severity)),
      ruleIds: sorted.map((rule) => rule.ruleId),
      title: noDataOnly ? `${where} returns no data` : `${where} cannot be read`,
      detail:
        messages.slice(0, MAX_MESSAGES).join('\n') +
        (messages.length > MAX_MESSAGES ? `\n(and ${messages.length - MAX_MESSAGES} more)` : '') +
        `\n${sorted.length} rule${sorted.length === 1 ? '' : 's'} cannot evaluate.`,
    };
  });
}
