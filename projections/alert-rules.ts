import type { Projection } from '../src/projection/projection.js';
import type { AlertRuleData } from '../src/events/alert-rule.js';

/**
 * Read model `alertRules`: the rules, plus what the evaluator needs to decide quickly: how many
 * incidents the rule has had and which one is active. Deleted rules stay, marked, so an incident
 * left active by a crash can still be resolved.
 */
export interface AlertRuleDoc extends Omit<AlertRuleData, 'ruleId'> {
  id: string;
  tenantId: string;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  revision: number;
  incidentCount: number;
  activeIncidentId: string | null;
  [field: string]: unknown;
}

export const ALERT_RULES = 'alertRules';

export const alertRulesProjection: Projection = {
  name: 'alertRules',
  version: 1,
  handles: ['AlertRuleCreated', 'AlertRuleUpdated', 'AlertRuleDeleted', 'IncidentTriggered', 'IncidentResolved'],
  collections: {
    [ALERT_RULES]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      { name: 'enabled', fields: ['isEnabled', 'deleted'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'AlertRuleCreated': {
        const { ruleId, ...rule } = event.data as unknown as AlertRuleData;
        await writer.upsert(ALERT_RULES, {
          ...rule, id: ruleId, tenantId: event.metadata.tenantId, deleted: false, createdAt: at, updatedAt: at,
          revision: Number(event.revision), incidentCount: 0, activeIncidentId: null,
        });
        break;
      }
      case 'AlertRuleUpdated': {
        const { ruleId, ...rule } = event.data as unknown as AlertRuleData;
        await writer.patch(ALERT_RULES, ruleId, { ...rule, updatedAt: at, revision: Number(event.revision) });
        break;
      }
      case 'AlertRuleDeleted':
        await writer.patch(ALERT_RULES, String(event.data.ruleId), { deleted: true, isEnabled: false, updatedAt: at, revision: Number(event.revision) });
        break;
      case 'IncidentTriggered': {
        const { ruleId, ordinal, incidentId } = event.data as { ruleId: string; ordinal: number; incidentId: string };
        const rule = await writer.get<AlertRuleDoc>(ALERT_RULES, ruleId);
        if (rule) await writer.patch(ALERT_RULES, ruleId, { incidentCount: Math.max(rule.incidentCount, ordinal), activeIncidentId: incidentId });
        break;
      }
      case 'IncidentResolved': {
        const incidentId = String(event.data.incidentId);
        const [rule] = await writer.find<AlertRuleDoc>(ALERT_RULES, { activeIncidentId: incidentId }, { limit: 1 });
        if (rule) await writer.patch(ALERT_RULES, rule.id, { activeIncidentId: null });
        break;
      }
    }
  },
};
