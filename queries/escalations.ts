/**
 * GET /api/v1/escalations: the tenant's pending escalations, soonest first: which incident, which
 * stage of which cycle fires next, and when. From the incidents read model (next_escalation_at).
 */
import type { PendingEscalation } from '../src/contract/incidents.js';
import { INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { nextDueStage } from '../src/events/escalation.js';
import { readModelRoutes } from '../src/http/read-model-routes.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const pendingEscalationView = (doc: IncidentDoc): PendingEscalation => {
  const { plan, lastFired } = doc.escalation;
  const due = plan ? nextDueStage(plan, lastFired) : null;
  return {
    incident_id: doc.id,
    title: doc.title,
    rule_name: doc.rule_name,
    severity: doc.severity,
    policy_name: plan?.policyName ?? null,
    next_stage: due?.stageOrder ?? null,
    cycle: due?.cycle ?? null,
    next_due_at: doc.next_escalation_at,
    last_fired_stage: lastFired
      ? { stage_order: lastFired.stageOrder, cycle: lastFired.cycle, fired_at: lastFired.firedAt }
      : null,
  };
};

export function escalationQueryRoutes(deps: { reader: ReadModelReader }) {
  return readModelRoutes<IncidentDoc>(deps.reader, {
    path: '/escalations',
    resourceName: 'escalation',
    permission: 'incidents:read',
    collection: INCIDENTS,
    sort: [['next_escalation_at', 'asc']],
    view: pendingEscalationView,
    item: false,
    listFilter: () => ({ status: 'triggered', next_escalation_at: { $ne: null } }),
  });
}
