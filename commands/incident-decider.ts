/**
 * Incidents: one decider whose `evolve` is also the projection's fold and the auditors' as-of view,
 * so the three can never disagree.
 *
 *   triggered ──acknowledge──► acknowledged ──resolve──► resolved
 *       └──────────────────resolve──────────────────────────┘
 *
 * Decisions taken where the spec is silent (PagerDuty-like): acknowledging an acknowledged
 * incident changes nothing and succeeds; acknowledging or resolving a resolved one is 409; notes
 * may be added in any state, also after resolution (post-mortems).
 */
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { deterministicUuid } from '../src/commanding/deterministic-id.js';
import type { IncidentEvent, IncidentTriggeredData } from '../src/events/incident.js';

export type IncidentStatus = 'triggered' | 'acknowledged' | 'resolved';

export interface IncidentNote {
  id: string;
  text: string;
  author: string;
  created_at: string;
}

/** The incident as clients see it (snake_case, as the API answers). */
export interface IncidentView {
  id: string;
  rule_id: string;
  rule_name: string;
  status: IncidentStatus;
  severity: string;
  current_value: number;
  metric: string;
  condition: string;
  threshold: number;
  env_id: string;
  cluster_id: string | null;
  escalation_policy_id: string;
  triggered_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution_reason: string | null;
  resolution_note: string | null;
  resolution_value: number | null;
  notes: IncidentNote[];
  ordinal: number;
}

export type IncidentState = { exists: false } | ({ exists: true } & IncidentView);

export type IncidentCommand =
  | { kind: 'TriggerIncident'; incident: Omit<IncidentTriggeredData, 'triggeredAt'> }
  | { kind: 'AcknowledgeIncident'; incidentId: string }
  | { kind: 'ResolveIncident'; incidentId: string; reason: 'auto' | 'manual' | 'rule_deleted'; note?: string; value?: number }
  | { kind: 'AddIncidentNote'; incidentId: string; text: string; noteId: string };

export const incidentStream = (id: string) => `incident-${id}`;
/** The rule's n-th incident always has the same id (see deterministicUuid). */
export const incidentIdFor = (ruleId: string, ordinal: number) => deterministicUuid(`incident:${ruleId}:${ordinal}`);

export function evolveIncident(state: IncidentState, event: IncidentEvent): IncidentState {
  switch (event.type) {
    case 'IncidentTriggered': {
      const d = event.data;
      return {
        exists: true, id: d.incidentId, rule_id: d.ruleId, rule_name: d.ruleName, status: 'triggered', severity: d.severity,
        current_value: d.currentValue, metric: d.metric, condition: d.condition, threshold: d.threshold, env_id: d.envId,
        cluster_id: d.clusterId, escalation_policy_id: d.escalationPolicyId, triggered_at: d.triggeredAt,
        acknowledged_at: null, acknowledged_by: null, resolved_at: null, resolved_by: null, resolution_reason: null,
        resolution_note: null, resolution_value: null, notes: [], ordinal: d.ordinal,
      };
    }
    case 'IncidentAcknowledged':
      return state.exists ? { ...state, status: 'acknowledged', acknowledged_at: event.data.at, acknowledged_by: event.data.by } : state;
    case 'IncidentResolved':
      return state.exists
        ? { ...state, status: 'resolved', resolved_at: event.data.at, resolved_by: event.data.by, resolution_reason: event.data.reason, resolution_note: event.data.note, resolution_value: event.data.value }
        : state;
    case 'IncidentNoteAdded':
      return state.exists
        ? { ...state, notes: [...state.notes, { id: event.data.noteId, text: event.data.text, author: event.data.by, created_at: event.data.at }] }
        : state;
  }
}

const conflictWithStatus = (action: string, state: IncidentView) =>
  rejectConflict(`cannot ${action} an incident that is ${state.status}`, { current_status: state.status });

export const incidentDecider: Decider<IncidentState, IncidentCommand, IncidentEvent> = {
  initialState: () => ({ exists: false }),
  evolve: evolveIncident,
  decide(command, state, { now, actor }) {
    const at = now.toISOString();
    if (command.kind === 'TriggerIncident') {
      // Someone else created this ordinal already: the decision has been taken, nothing to add.
      if (state.exists) return [];
      return [{ type: 'IncidentTriggered', data: { ...command.incident, triggeredAt: at } }];
    }
    if (!state.exists) throw rejectNotFound('incident');
    switch (command.kind) {
      case 'AcknowledgeIncident':
        if (state.status === 'acknowledged') return [];
        if (state.status === 'resolved') throw conflictWithStatus('acknowledge', state);
        return [{ type: 'IncidentAcknowledged', data: { incidentId: state.id, by: actor, at } }];
      case 'ResolveIncident':
        if (state.status === 'resolved') {
          // An automatic or cascading resolution of an already resolved incident is a no-op.
          if (command.reason !== 'manual') return [];
          throw conflictWithStatus('resolve', state);
        }
        return [{ type: 'IncidentResolved', data: { incidentId: state.id, by: actor, at, reason: command.reason, note: command.note ?? null, value: command.value ?? null } }];
      case 'AddIncidentNote':
        return [{ type: 'IncidentNoteAdded', data: { incidentId: state.id, noteId: command.noteId, text: command.text, by: actor, at } }];
    }
  },
};

