/**
 * Email subject templates: `{{severity}} {{rule_name}} on {{metric}}`. Placeholders may carry
 * spaces inside the braces (`{{ severity }}`). Channel validation refuses templates with unknown
 * placeholders (`unknownPlaceholders`), so rendering leaves any it meets as written. Pure.
 */
import { formatNumber } from './alert-text.js';
import type { AlertMessage } from './port.js';

export const SUBJECT_PLACEHOLDERS = [
  'severity',
  'title',
  'source',
  'rule_name',
  'metric',
  'current_value',
  'threshold',
  'status',
  'incident_id',
] as const;
export type SubjectPlaceholder = (typeof SUBJECT_PLACEHOLDERS)[number];

export const DEFAULT_SUBJECT_TEMPLATE =
  '[{{severity}}] {{status}}: {{rule_name}} ({{metric}} {{current_value}}, threshold {{threshold}})';
/** The default subject of an incident with no reading (a read failure, a heartbeat, the platform). */
export const DEFAULT_SUBJECT_WITHOUT_READING = '[{{severity}}] {{status}}: {{title}}';

/** The channel's template, or the default that fits the message. */
export const subjectTemplateFor = (template: string | undefined, message: AlertMessage) =>
  template ?? (message.currentValue === null ? DEFAULT_SUBJECT_WITHOUT_READING : DEFAULT_SUBJECT_TEMPLATE);

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

const KNOWN_PLACEHOLDERS: ReadonlySet<string> = new Set(SUBJECT_PLACEHOLDERS);

/** Placeholder names in the template that rendering does not know, each once, in order. */
export function unknownPlaceholders(template: string): string[] {
  const unknown = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) if (!KNOWN_PLACEHOLDERS.has(match[1]!)) unknown.add(match[1]!);
  return [...unknown];
}

function placeholderValues(message: AlertMessage): Record<SubjectPlaceholder, string> {
  return {
    severity: message.severity,
    title: message.title,
    source: message.source,
    rule_name: message.ruleName ?? message.title,
    metric: message.metric ?? '-',
    current_value: message.currentValue === null ? '-' : formatNumber(message.currentValue),
    threshold: message.threshold === null ? '-' : formatNumber(message.threshold),
    status: message.status,
    incident_id: message.incidentId,
  };
}

/**
 * The subject for a message. Line breaks and other control characters (from a rule name, say) are
 * replaced by spaces: a subject is one header line.
 */
export function renderSubject(template: string, message: AlertMessage): string {
  const values = placeholderValues(message) as Record<string, string>;
  const rendered = template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
  // eslint-disable-next-line no-control-regex
  return rendered
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 900);
}
