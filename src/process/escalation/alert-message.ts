import type { IncidentView } from '../../events/incident.js';
import type { AlertMessage, AlertSeverity } from '../../gateways/notify/port.js';

/** What every medium says about an incident, at the moment of a stage or of its resolution. */
export function alertMessageOf(incident: IncidentView, incidentUrl: string, occurredAt: Date): AlertMessage {
  return {
    incidentId: incident.id,
    status: incident.status,
    severity: incident.severity as AlertSeverity,
    source: incident.source,
    title: incident.title,
    detail: incident.detail,
    ruleName: incident.rule_name,
    metric: incident.metric,
    currentValue: incident.current_value,
    threshold: incident.threshold,
    condition: (incident.condition ?? undefined) as AlertMessage['condition'],
    cluster: incident.cluster_id,
    incidentUrl,
    occurredAt: occurredAt.toISOString(),
  };
}
