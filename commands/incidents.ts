/**
 * Incidents: the decider (the bodies are src/contract/bodies/incidents.ts). Decisions taken where the spec is silent (PagerDuty-like): acknowledging
 * an acknowledged incident changes nothing and succeeds; acknowledging or resolving a resolved one
 * is 409; notes may be added in any state, also after resolution (post-mortems). Incidents are
 * created by the evaluator (src/process/evaluator.ts), the other sources (src/process/subject-incidents.ts,
 * src/process/inbound/alert-intake.ts) and by hand (POST /incidents, commands/incident-routes.ts). The model is src/events/incident.ts; the
 * routes are commands/incident-routes.ts.
 */
import type { CommandDeps, CommandEnvelope } from '../src/commanding/command-handler.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveIncident,
  incidentStream,
  initialIncidentState,
  type IncidentEvent,
  type IncidentState,
  type IncidentTriggeredData,
  type IncidentView,
  type ResolutionReason,
} from '../src/events/incident.js';

export type IncidentCommand =
  | { kind: 'TriggerIncident'; incident: Omit<IncidentTriggeredData, 'triggeredAt'> }
  | { kind: 'AcknowledgeIncident'; incidentId: string }
  | { kind: 'ResolveIncident'; incidentId: string; reason: ResolutionReason; note?: string; value?: number }
  | { kind: 'AddIncidentNote'; incidentId: string; text: string; noteId: string };

const conflictWithStatus = (action: string, state: IncidentView) =>
  rejectConflict(`cannot ${action} an incident that is ${state.status}`, { current_status: state.status });

export const incidentDecider: Decider<IncidentState, IncidentCommand, IncidentEvent> = {
  initialState: initialIncidentState,
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
        return [
          {
            type: 'IncidentResolved',
            data: {
              incidentId: state.id,
              by: actor,
              at,
              reason: command.reason,
              note: command.note ?? null,
              value: command.value ?? null,
            },
          },
        ];
      case 'AddIncidentNote':
        return [
          {
            type: 'IncidentNoteAdded',
            data: { incidentId: state.id, noteId: command.noteId, text: command.text, by: actor, at },
          },
        ];
    }
  },
};

/** Resolves an incident for a system reason (its rule was deleted or disabled); a resolved one is left alone. */
export function resolveIncidentForRule(
  deps: CommandDeps,
  envelope: CommandEnvelope,
  incidentId: string,
  reason: 'rule_deleted' | 'rule_disabled',
) {
  return handleCommand(deps, incidentDecider, {
    stream: incidentStream(incidentId),
    resourceName: 'incident',
    command: { kind: 'ResolveIncident', incidentId, reason },
    envelope,
  });
}
