/**
 * The alert as a PagerDuty Events API v2 event (also spoken by Opsgenie's, Splunk On-Call's and
 * Grafana OnCall's PagerDuty-compatible integrations). The incident id is the dedup_key, so the
 * trigger, the acknowledgement and the resolution of one incident act on one pager incident, and a
 * retried trigger does not open a second one. Pure.
 */
import { alertSummary, formatNumber } from './alert-text.js';
import { PAGER_SEVERITIES, type AlertMessage, type AlertSeverity, type PagerSeverity } from './port.js';

export const DEFAULT_PAGER_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/** Used for a severity the channel's mapping leaves out or maps to something the API refuses. */
export const DEFAULT_SEVERITY_MAPPING: Record<AlertSeverity, PagerSeverity> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
};

export function pagerSeverity(severity: AlertSeverity, mapping: Partial<Record<AlertSeverity, string>>): PagerSeverity {
  const mapped = mapping[severity];
  return PAGER_SEVERITIES.includes(mapped as PagerSeverity)
    ? (mapped as PagerSeverity)
    : DEFAULT_SEVERITY_MAPPING[severity];
}

const ACTIONS = { triggered: 'trigger', acknowledged: 'acknowledge', resolved: 'resolve' } as const;

export function pagerEvent(
  message: AlertMessage,
  config: { integration_key: string; severity_mapping: Partial<Record<AlertSeverity, string>> },
) {
  const common = {
    routing_key: config.integration_key,
    event_action: ACTIONS[message.status],
    dedup_key: message.incidentId,
  };
  // The API reads the payload of trigger events only; acknowledge and resolve name the incident.
  if (message.status !== 'triggered') return common;
  return {
    ...common,
    payload: {
      summary: alertSummary(message).slice(0, 1024), // the API's limit
      source: message.cluster ?? 'warehouse-watch',
      severity: pagerSeverity(message.severity, config.severity_mapping),
      timestamp: message.occurredAt,
      component: message.metric ?? message.source,
      class: message.ruleName ?? message.source,
      custom_details: {
        incident_id: message.incidentId,
        source: message.source,
        title: message.title,
        ...(message.detail ? { detail: message.detail } : {}),
        rule_name: message.ruleName,
        metric: message.metric,
        current_value: message.currentValue === null ? null : formatNumber(message.currentValue),
        threshold: message.threshold === null ? null : formatNumber(message.threshold),
        ...(message.condition ? { condition: message.condition } : {}),
        platform_severity: message.severity,
        cluster: message.cluster,
      },
    },
    links: [{ href: message.incidentUrl, text: 'Incident in warehouse-watch' }],
    client: 'warehouse-watch',
    client_url: message.incidentUrl,
  };
}
