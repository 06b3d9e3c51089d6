/**
 * What an evaluation does to its rule's own incident: trigger the rule's next one, resolve the open
 * one, or resolve one left open by a rule since disabled or deleted.
 *
 * Exactly one active incident per rule holds across instances because the rule's n-th incident has
 * a fixed id: two evaluators that both decide to trigger append to the same new stream, and only
 * one append with "no stream" expected can succeed.
 */
import { incidentDecider, type IncidentCommand } from '../../commands/incidents.js';
import type { AlertRuleDoc } from '../../projections/alert-rules.js';
import { handleCommand, type CommandDeps } from '../commanding/command-handler.js';
import { incidentIdFor, incidentStream } from '../events/incident.js';
import type { RuleEvaluatedData } from '../events/rule-evaluation.js';
import type { EvaluationDecision } from './evaluation-decision.js';
import { countResolution, type EvaluatorInstruments } from './evaluator-instruments.js';

export const EVALUATOR_ACTOR = 'system:evaluator';

export interface ActResult {
  outcome: RuleEvaluatedData['outcome'];
  incidentId: string | null;
  /** Why the action itself failed (the reading was fine). */
  error?: string;
}

/** Whether carrying out the decision changes the rule's incident (otherwise `act` answers unchangedIncident). */
export const changesIncident = (rule: AlertRuleDoc, decision: EvaluationDecision) =>
  decision.action === 'trigger' || (decision.action === 'resolve' && Boolean(rule.activeIncidentId));

/** The result of a decision that changes no incident. */
export const unchangedIncident = (rule: AlertRuleDoc, decision: EvaluationDecision): ActResult => ({
  outcome: decision.outcome,
  incidentId: rule.activeIncidentId,
});

/**
 * A trigger or a resolve decided in a tick does not wait for its own projection: the tick waits
 * once, for its last recorded evaluation, which is appended after every action it took
 * (src/process/evaluator.ts), and the next tick waits for the log's head. Waiting per incident held
 * each of the 16 actions under way for a projection round trip: 335 triggers in one tick took
 * 0.4-0.9 s of it.
 */
const notWaitingForProjections = async () => true;

export function createRuleIncidentActions(deps: CommandDeps & { instruments: EvaluatorInstruments }) {
  const decided = { ...deps, waitForProjections: notWaitingForProjections };
  const command = (
    rule: AlertRuleDoc,
    incidentId: string,
    cmd: IncidentCommand,
    tickId: string,
    commandDeps: CommandDeps = deps,
  ) =>
    handleCommand(commandDeps, incidentDecider, {
      stream: incidentStream(incidentId),
      resourceName: 'incident',
      command: cmd,
      envelope: {
        tenantId: rule.tenantId,
        actor: EVALUATOR_ACTOR,
        correlationId: tickId,
        causationId: tickId,
      },
    });

  async function trigger(rule: AlertRuleDoc, value: number, tickId: string): Promise<ActResult> {
    const ordinal = rule.incidentCount + 1;
    const incidentId = incidentIdFor(rule.id, ordinal);
    const outcome = await command(
      rule,
      incidentId,
      {
        kind: 'TriggerIncident',
        incident: {
          incidentId,
          source: 'rule',
          subject: rule.id,
          title: rule.name,
          ruleId: rule.id,
          ruleName: rule.name,
          ordinal,
          currentValue: value,
          severity: rule.severity,
          metric: rule.metric,
          condition: rule.condition,
          threshold: rule.threshold,
          envId: rule.envId,
          clusterId: rule.clusterId,
          escalationPolicyId: rule.escalationPolicyId,
        },
      },
      tickId,
      decided,
    );
    // No events: another evaluator created this incident first.
    if (outcome.events.length === 0) return { outcome: 'unchanged', incidentId };
    deps.instruments.triggered.inc({ severity: rule.severity });
    return { outcome: 'triggered', incidentId };
  }

  async function resolve(rule: AlertRuleDoc, incidentId: string, value: number, tickId: string): Promise<ActResult> {
    const outcome = await command(
      rule,
      incidentId,
      { kind: 'ResolveIncident', incidentId, reason: 'auto', value },
      tickId,
      decided,
    );
    countResolution(deps.instruments, outcome);
    return {
      outcome: outcome.events.length > 0 ? 'resolved' : 'unchanged',
      incidentId,
    };
  }

  /** Carries out one rule's decision on its own incident. */
  async function act(rule: AlertRuleDoc, decision: EvaluationDecision, tickId: string): Promise<ActResult> {
    if (decision.action === 'trigger') return trigger(rule, decision.value, tickId);
    if (decision.action === 'resolve' && rule.activeIncidentId)
      return resolve(rule, rule.activeIncidentId, decision.value, tickId);
    return unchangedIncident(rule, decision);
  }

  /**
   * Resolves the incidents left active by a deleted or disabled rule: a crash between the rule's
   * change and the resolve, or a trigger decided on the rule as it was when this tick started.
   */
  async function resolveOrphans(orphans: readonly AlertRuleDoc[], tickId: string) {
    for (const rule of orphans) {
      const reason = rule.deleted ? 'rule_deleted' : 'rule_disabled';
      const outcome = await command(
        rule,
        rule.activeIncidentId!,
        { kind: 'ResolveIncident', incidentId: rule.activeIncidentId!, reason },
        tickId,
      );
      countResolution(deps.instruments, outcome);
    }
  }

  return { act, resolveOrphans };
}
