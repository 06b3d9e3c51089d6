/**
 * One evaluation as the rule's history keeps it (a RuleEvaluated event on the rule's evaluation
 * stream); which evaluations are kept is src/process/evaluation-record.ts's rule.
 */
import type { AlertRuleDoc } from '../../projections/alert-rules.js';
import type { EventStore } from '../eventstore/port.js';
import { ruleEvaluationStream, type RuleEvaluatedData } from '../events/rule-evaluation.js';
import type { EvaluationDecision } from './evaluation-decision.js';
import { EVALUATOR_ACTOR, type ActResult } from './rule-incident-actions.js';

export function evaluationOf(
  rule: AlertRuleDoc,
  /** The tick's instant, ISO. */
  at: string,
  decision: EvaluationDecision,
  result: ActResult,
): RuleEvaluatedData {
  return {
    ruleId: rule.id,
    at,
    value: 'value' in decision ? decision.value : null,
    conditionMet: 'conditionMet' in decision ? decision.conditionMet : null,
    outcome: result.outcome,
    incidentId: result.incidentId,
    error: decision.outcome === 'error' || decision.outcome === 'no_data' ? decision.error : (result.error ?? null),
    windowId: decision.outcome === 'silenced' ? decision.windowId : null,
  };
}

export function recordEvaluation(eventStore: EventStore, rule: AlertRuleDoc, data: RuleEvaluatedData, tickId: string) {
  return eventStore.append(ruleEvaluationStream(rule.id), [
    {
      type: 'RuleEvaluated',
      data,
      metadata: {
        tenantId: rule.tenantId,
        actor: EVALUATOR_ACTOR,
        correlationId: tickId,
        causationId: tickId,
        occurredAt: data.at,
      },
    },
  ]);
}
