/** How the console names an integration's kind (what sends to it) and sums up its severity map. */
import type { Integration, IntegrationKind } from './api/types';

export const INTEGRATION_KIND_WORDS: Record<IntegrationKind, string> = {
  events_v2: 'PagerDuty Events API v2 (Alertmanager, Grafana, Airflow, dbt Cloud)',
  alertmanager: 'Alertmanager webhook',
  sns: 'CloudWatch alarms through SNS',
  generic: 'Any JSON',
};

/** `critical → critical, error → high, …`: the sender's words onto ours. */
export const severityMapWords = (integration: Pick<Integration, 'severity_map' | 'default_severity'>) =>
  `${Object.entries(integration.severity_map)
    .map(([word, severity]) => `${word} → ${severity}`)
    .join(', ')}; otherwise ${integration.default_severity}`;
