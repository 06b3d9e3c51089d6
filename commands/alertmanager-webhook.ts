/**
 * Prometheus Alertmanager's webhook payload (`webhook_configs`, payload version 4) read into
 * normalized alerts. Pure: commands/receiver-routes.ts authenticates and hands them to the intake.
 *
 * The payload (Alertmanager's notify/webhook): `version` "4", `groupKey`, `truncatedAlerts`,
 * `status` firing|resolved, `receiver`, `groupLabels`, `commonLabels`, `commonAnnotations`,
 * `externalURL`, and `alerts[]` each with `status`, `labels`, `annotations`, `startsAt`, `endsAt`,
 * `generatorURL`, `fingerprint`. Per the integration's `incident_per`:
 *   - `fingerprint`: each alert is its own incident (dedup key: the fingerprint), firing triggers
 *     and resolved resolves it, its labels and annotations kept on the incident;
 *   - `group_key`: the group is one incident (dedup key: the group key), the payload's `status`
 *     decides, the common labels and annotations kept.
 * Title: the `summary` annotation, else `alertname`; severity: the `severity` label through the map.
 * The whole payload is checked before anything is returned, so a bad one changes nothing.
 */
import type { AlertmanagerConfig } from '../src/contract/bodies/integration-config.js';
import type { NormalizedAlert } from '../src/events/inbound-alert.js';
import { instantOf } from './events-v2.js';
import { isObject, receiverAlert, type Read } from './receiver-alert.js';
import type { RoutedIntegration } from './routing-key-gate.js';

type Strings = Record<string, string>;
type Errors = { path: string; message: string }[];

const STATUSES = ['firing', 'resolved'] as const;
/** Alertmanager's "no end yet" (Go's zero time). */
const ZERO_TIME = '0001-01-01T00:00:00Z';

function strings(value: unknown, path: string, errors: Errors): Strings {
  if (value === undefined || value === null) return {};
  if (!isObject(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
    errors.push({ path, message: 'must be an object of strings' });
    return {};
  }
  return value as Strings;
}

function text(value: unknown, path: string, errors: Errors, required = false): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) errors.push({ path, message: 'is required' });
    return null;
  }
  if (typeof value !== 'string') {
    errors.push({ path, message: 'must be a string' });
    return null;
  }
  return value;
}

function status(value: unknown, path: string, errors: Errors): 'firing' | 'resolved' {
  if (!(STATUSES as readonly unknown[]).includes(value)) errors.push({ path, message: 'must be firing or resolved' });
  return value === 'resolved' ? 'resolved' : 'firing';
}

const instant = (value: string | null) => (value === null || value === ZERO_TIME ? null : (instantOf(value) ?? null));

export function readAlertmanagerWebhook(
  body: Record<string, unknown>,
  integration: RoutedIntegration,
): Read<NormalizedAlert[]> {
  const errors: Errors = [];
  if (body.version !== '4') errors.push({ path: '/version', message: 'must be "4" (webhook payload version 4)' });
  const groupKey = text(body.groupKey, '/groupKey', errors, true);
  const groupStatus = status(body.status, '/status', errors);
  const receiver = text(body.receiver, '/receiver', errors);
  const externalUrl = text(body.externalURL, '/externalURL', errors);
  const groupLabels = strings(body.groupLabels, '/groupLabels', errors);
  const commonLabels = strings(body.commonLabels, '/commonLabels', errors);
  const commonAnnotations = strings(body.commonAnnotations, '/commonAnnotations', errors);
  const truncated = body.truncatedAlerts ?? 0;
  if (typeof truncated !== 'number' || !Number.isInteger(truncated) || truncated < 0)
    errors.push({ path: '/truncatedAlerts', message: 'must be a whole number of alerts left out' });
  if (!Array.isArray(body.alerts)) errors.push({ path: '/alerts', message: 'must be an array' });
  const perGroup = (integration.config as Partial<AlertmanagerConfig>).incident_per === 'group_key';

  const alerts = (Array.isArray(body.alerts) ? body.alerts : []).map((entry: unknown, index) => {
    const at = `/alerts/${index}`;
    if (!isObject(entry)) {
      errors.push({ path: at, message: 'must be an object' });
      return null;
    }
    return {
      status: status(entry.status, `${at}/status`, errors),
      labels: strings(entry.labels, `${at}/labels`, errors),
      annotations: strings(entry.annotations, `${at}/annotations`, errors),
      startsAt: instant(text(entry.startsAt, `${at}/startsAt`, errors)),
      endsAt: instant(text(entry.endsAt, `${at}/endsAt`, errors)),
      generatorURL: text(entry.generatorURL, `${at}/generatorURL`, errors),
      // The incident's key when each alert is its own incident.
      fingerprint: text(entry.fingerprint, `${at}/fingerprint`, errors, !perGroup),
    };
  });
  if (errors.length > 0) return { ok: false, errors };

  const common = { client: 'Alertmanager', client_url: externalUrl };
  if (perGroup) {
    const firing = alerts.filter((alert) => alert!.status === 'firing').length;
    return {
      ok: true,
      value: [
        receiverAlert(integration, {
          dedupKey: groupKey!,
          action: groupStatus === 'firing' ? 'trigger' : 'resolve',
          title: commonAnnotations.summary ?? commonLabels.alertname ?? groupLabels.alertname ?? groupKey,
          sender: {
            ...common,
            source: receiver,
            severity: commonLabels.severity ?? null,
            labels: commonLabels,
            custom_details: {
              annotations: commonAnnotations,
              group_labels: groupLabels,
              group_key: groupKey,
              firing,
              resolved: alerts.length - firing,
              truncated_alerts: truncated,
            },
          },
        }),
      ],
    };
  }
  return {
    ok: true,
    value: alerts.map((alert) => {
      const { labels, annotations } = alert!;
      return receiverAlert(integration, {
        dedupKey: alert!.fingerprint!,
        action: alert!.status === 'firing' ? 'trigger' : 'resolve',
        title: annotations.summary ?? labels.alertname ?? alert!.fingerprint,
        sender: {
          ...common,
          source: receiver,
          severity: labels.severity ?? null,
          timestamp: alert!.startsAt,
          labels,
          links: alert!.generatorURL ? [{ href: alert!.generatorURL, text: 'generator' }] : [],
          custom_details: {
            annotations,
            starts_at: alert!.startsAt,
            ends_at: alert!.endsAt,
            fingerprint: alert!.fingerprint,
            group_key: groupKey,
          },
        },
      });
    }),
  };
}
