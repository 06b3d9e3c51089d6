/**
 * The incidents of clusters that cannot be read (source `rule_error`), opened and resolved at the
 * end of each evaluation tick, once the tick's evaluations are in the read model.
 *
 * Opening: the tick's paging rules (readFailureVerdict `alerting`), grouped per (environment,
 * cluster, policy), each group opens its subject's incident unless one is open (fixed ids: two
 * instances, or one retrying after a crash, open it once).
 *
 * Resolving is decided on the read model, not on this instance's rules: a rule_error incident is
 * resolved when no enabled rule of its group is failing with `alerting` for what failed. In a
 * cluster the group's rules may be spread over instances (they share a bucket per metric and
 * window, not per cluster), and an instance whose own rules read again must not resolve the
 * incident while another's still fail.
 */
import { ALERT_RULES, type AlertRuleDoc } from '../../projections/alert-rules.js';
import { INCIDENTS, type IncidentDoc } from '../../projections/incidents.js';
import { readFailureSettingsOf } from '../events/alert-rule.js';
import type { ReadModelReader } from '../readstore/port.js';
import { groupOfSubject, groupReadFailures, type PagingRule } from './read-failure-decision.js';
import { EVALUATOR_ACTOR } from './rule-incident-actions.js';
import type { SubjectIncidents } from './subject-incidents.js';

export interface ReadFailureIncidentDeps {
  reader: ReadModelReader;
  subjectIncidents: SubjectIncidents;
}

/** Whether a rule, as the read model has it, still holds its group's incident open. */
function stillFailingWithAlerting(rule: AlertRuleDoc): boolean {
  if (rule.health !== 'failing') return false;
  const settings = readFailureSettingsOf(rule);
  const failure = rule.lastRecorded?.outcome === 'no_data' ? settings.onNoData : settings.onError;
  return failure === 'alerting';
}

export function createReadFailureIncidents(deps: ReadFailureIncidentDeps) {
  /** Opens the groups' incidents; returns how many this call opened. */
  async function open(
    paging: readonly PagingRule[],
    tickId: string,
  ): Promise<{ opened: number; subjects: Set<string> }> {
    let opened = 0;
    const subjects = new Set<string>();
    for (const group of groupReadFailures(paging)) {
      subjects.add(`${group.tenantId}/${group.subject}`);
      const outcome = await deps.subjectIncidents.open(
        { tenantId: group.tenantId, actor: EVALUATOR_ACTOR, correlationId: tickId },
        {
          source: 'rule_error',
          subject: group.subject,
          title: group.title,
          detail: group.detail,
          severity: group.severity,
          escalationPolicyId: group.escalationPolicyId,
          envId: group.envId,
          clusterId: group.clusterId,
          ruleIds: group.ruleIds,
        },
      );
      if (outcome.opened) opened++;
    }
    return { opened, subjects };
  }

  /** Resolves every open rule_error incident (but those paged this tick) whose group no longer fails. */
  async function resolveRecovered(pagedNow: ReadonlySet<string>, tickId: string): Promise<number> {
    const openIncidents = await deps.reader.find<IncidentDoc>(INCIDENTS, {
      status: { $in: ['triggered', 'acknowledged'] },
      source: 'rule_error',
    });
    let resolved = 0;
    for (const incident of openIncidents) {
      const subject = String(incident['subject'] ?? '');
      if (pagedNow.has(`${incident.tenantId}/${subject}`)) continue;
      const group = groupOfSubject(subject);
      if (!group) continue;
      const failing = await deps.reader.find<AlertRuleDoc>(ALERT_RULES, {
        tenantId: incident.tenantId,
        envId: group.envId,
        clusterId: group.clusterId,
        escalationPolicyId: group.escalationPolicyId,
        isEnabled: true,
        deleted: false,
        health: 'failing',
      });
      if (failing.some(stillFailingWithAlerting)) continue;
      const done = await deps.subjectIncidents.resolve(
        { tenantId: incident.tenantId, actor: EVALUATOR_ACTOR, correlationId: tickId },
        subject,
        'the rules of this cluster and policy read again (or no longer page for a failed read)',
      );
      if (done) resolved++;
    }
    return resolved;
  }

  return { open, resolveRecovered };
}
