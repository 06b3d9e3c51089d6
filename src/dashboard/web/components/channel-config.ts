/**
 * A channel's config as form text and back, per type (docs/notification-channels.md): email
 * recipients one per line or comma-separated, webhook headers as `Name: value` lines. Masked secrets
 * (`****` + the last four) stay in the form as the API showed them: sent back unchanged they keep the
 * stored secret, so a secret is replaced only when someone types a new one.
 */
import type { ChannelType } from '../api/types';

export const CHANNEL_TYPES: { type: ChannelType; label: string }[] = [
  { type: 'webhook', label: 'Webhook' },
  { type: 'email', label: 'Email' },
  { type: 'chat', label: 'Chat (Slack incoming webhook)' },
  { type: 'pager', label: 'Pager (PagerDuty Events API v2)' },
];

export { PAGER_SEVERITIES, SEVERITIES } from '../../../contract/vocabulary';
const DEFAULT_MAPPING: Record<string, string> = { critical: 'critical', high: 'error', medium: 'warning', low: 'info' };
const DEFAULT_SUBJECT =
  '[{{severity}}] {{status}}: {{rule_name}} ({{metric}} {{current_value}}, threshold {{threshold}})';

/** Every field of every type as text: switching type keeps what was typed for the other. */
export interface ConfigForm {
  recipients: string;
  subject_template: string;
  url: string;
  method: string;
  headers: string;
  webhook_url: string;
  channel_name: string;
  integration_key: string;
  severity_mapping: Record<string, string>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function configForm(config: Record<string, unknown> = {}): ConfigForm {
  const headers = (config.headers ?? {}) as Record<string, string>;
  return {
    recipients: Array.isArray(config.recipients) ? config.recipients.join('\n') : '',
    subject_template: text(config.subject_template) || DEFAULT_SUBJECT,
    url: text(config.url),
    method: text(config.method) || 'POST',
    headers: Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    webhook_url: text(config.webhook_url),
    channel_name: text(config.channel_name),
    integration_key: text(config.integration_key),
    severity_mapping: { ...DEFAULT_MAPPING, ...((config.severity_mapping ?? {}) as Record<string, string>) },
  };
}

function headerLines(lines: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    // A line without a colon is sent as a name with an empty value: the API names it if it is wrong.
    if (colon < 0) headers[line.trim()] = '';
    else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The config the API takes for `type`, from the form (only that type's fields: unknown ones are refused). */
export function configOf(type: ChannelType, form: ConfigForm): Record<string, unknown> {
  switch (type) {
    case 'email':
      return {
        recipients: form.recipients
          .split(/[\n,]/)
          .map((r) => r.trim())
          .filter(Boolean),
        subject_template: form.subject_template,
      };
    case 'webhook':
      return { url: form.url.trim(), method: form.method, headers: headerLines(form.headers) };
    case 'chat':
      return { webhook_url: form.webhook_url.trim(), channel_name: form.channel_name };
    case 'pager':
      return { integration_key: form.integration_key.trim(), severity_mapping: form.severity_mapping };
  }
}

/** Where a channel sends, for the list (secrets are already masked by the API). */
export function destinationOf(type: ChannelType, config: Record<string, unknown>): string {
  if (type === 'email') return Array.isArray(config.recipients) ? config.recipients.join(', ') : '';
  if (type === 'webhook') return `${text(config.method)} ${text(config.url)}`;
  if (type === 'chat') return `${text(config.channel_name)} (${text(config.webhook_url)})`;
  return `integration key ${text(config.integration_key)}`;
}
