import { ruleShareBucket } from '../src/events/rule-shares.js';
import type { Projection } from '../src/projection-runner/projection.js';
import type { AlertRuleData } from '../src/events/alert-rule.js';
import {
  initialRuleWatch,
  watchAfterEvaluation,
  watchAfterManualResolve,
  watchAfterRuleChange,
  watchChanged,
  type RecordedEvaluation,
  type RuleEvaluatedData,
  type RuleWatch,
} from '../src/events/rule-evaluation.js';

/**
 * Read model `alertRules`: the rules, plus what the evaluator needs to decide quickly: how many
 * incidents the rule has had, which one is active, and the rule's watch state folded from its
 * evaluations (pending since, re-armed, health). Deleted rules stay, marked, so an incident left
 * active by a crash can still be resolved and their history stays readable.
 */
export interface AlertRuleDoc extends Omit<AlertRuleData, 'ruleId'>, Partial<RuleWatch> {
  id: string;
  tenantId: string;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  revision: number;
  incidentCount: number;
  activeIncidentId: string | null;
  /**
   * The newest recorded evaluation (src/process/evaluation-record.ts); null or absent: none since
   * the rule was created or last changed what it watches, so the next evaluation is recorded.
   */
  lastRecorded?: RecordedEvaluation | null;
  [field: string]: unknown;
}

export const ALERT_RULES = 'alertRules';

/** The alertRules documents' change feed (src/readstore/doc-changes.ts): the evaluator keeps the rules in memory by it. */
export const ALERT_RULE_CHANGES = { projection: 'alertRules', collection: ALERT_RULES } as const;

/** The watch fields of a doc (a doc written before they existed reads as a fresh watch). */
export const watchOf = (doc: AlertRuleDoc): RuleWatch => {
  const initial = initialRuleWatch();
  return {
    pendingSince: doc.pendingSince ?? initial.pendingSince,
    rearmed: doc.rearmed ?? initial.rearmed,
    health: doc.health ?? initial.health,
    lastError: doc.lastError ?? initial.lastError,
    failingSince: doc.failingSince ?? initial.failingSince,
  };
};

/** Fields whose change makes earlier breaching evaluations meaningless for the pending clock. */
const WATCHED_FIELDS = ['metric', 'condition', 'threshold', 'clusterId', 'isEnabled'] as const;

export const alertRulesProjection: Projection = {
  name: 'alertRules',
  // 3: shareBucket (src/events/rule-shares.ts), by which cluster members read only their own rules.
  version: 3,
  handles: [
    'AlertRuleCreated',
    'AlertRuleUpdated',
    'AlertRuleDeleted',
    'IncidentTriggered',
    'IncidentResolved',
    'RuleEvaluated',
  ],
  collections: {
    [ALERT_RULES]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      // The evaluator reads the enabled rules in pages ordered by id (src/process/evaluator.ts).
      { name: 'enabled_id', fields: ['isEnabled', 'deleted', 'id'] },
      // A cluster member reads its buckets' rules (src/events/rule-shares.ts).
      { name: 'enabled_bucket_id', fields: ['isEnabled', 'deleted', 'shareBucket', 'id'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'AlertRuleCreated': {
        const { ruleId, ...rule } = event.data as unknown as AlertRuleData;
        await writer.upsert(ALERT_RULES, {
          ...rule,
          ...initialRuleWatch(),
          id: ruleId,
          tenantId: event.metadata.tenantId,
          deleted: false,
          createdAt: at,
          updatedAt: at,
          shareBucket: ruleShareBucket(rule),
          revision: Number(event.revision),
          incidentCount: 0,
          activeIncidentId: null,
          lastRecorded: null,
        });
        break;
      }
      case 'AlertRuleUpdated': {
        const { ruleId, ...rule } = event.data as unknown as AlertRuleData;
        const current = await writer.get<AlertRuleDoc>(ALERT_RULES, ruleId);
        const restart = current !== null && WATCHED_FIELDS.some((field) => current[field] !== rule[field]);
        await writer.patch(ALERT_RULES, ruleId, {
          ...rule,
          ...(restart ? { ...watchAfterRuleChange(watchOf(current)), lastRecorded: null } : {}),
          updatedAt: at,
          revision: Number(event.revision),
          shareBucket: ruleShareBucket(rule),
        });
        break;
      }
      case 'AlertRuleDeleted':
        await writer.patch(ALERT_RULES, String(event.data.ruleId), {
          deleted: true,
          isEnabled: false,
          pendingSince: null,
          updatedAt: at,
          revision: Number(event.revision),
        });
        break;
      case 'IncidentTriggered': {
        const { ruleId, ordinal, incidentId } = event.data as { ruleId: string; ordinal: number; incidentId: string };
        const rule = await writer.get<AlertRuleDoc>(ALERT_RULES, ruleId);
        if (rule)
          await writer.patch(ALERT_RULES, ruleId, {
            incidentCount: Math.max(rule.incidentCount, ordinal),
            activeIncidentId: incidentId,
          });
        break;
      }
      case 'IncidentResolved': {
        const incidentId = String(event.data.incidentId);
        const [rule] = await writer.find<AlertRuleDoc>(ALERT_RULES, { activeIncidentId: incidentId }, { limit: 1 });
        if (!rule) break;
        const disarm = event.data.reason === 'manual' ? watchAfterManualResolve(watchOf(rule)) : {};
        await writer.patch(ALERT_RULES, rule.id, { activeIncidentId: null, ...disarm });
        break;
      }
      case 'RuleEvaluated': {
        const evaluation = event.data as unknown as RuleEvaluatedData;
        const rule = await writer.get<AlertRuleDoc>(ALERT_RULES, evaluation.ruleId);
        if (!rule) break;
        const before = watchOf(rule);
        const after = watchAfterEvaluation(before, evaluation);
        const { at, outcome, conditionMet, incidentId, error, windowId } = evaluation;
        const lastRecorded: RecordedEvaluation = {
          at,
          outcome,
          conditionMet,
          incidentId,
          error,
          windowId: windowId ?? null,
        };
        await writer.patch(
          ALERT_RULES,
          rule.id,
          watchChanged(before, after) ? { ...after, lastRecorded } : { lastRecorded },
        );
        break;
      }
    }
  },
};
