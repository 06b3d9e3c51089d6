/**
 * The words every medium uses for an alert, so chat, email, pager and sms say the same thing.
 * Pure.
 */
import type { AlertMessage } from './port.js';

const OPERATORS = { gt: '>', lt: '<', gte: '≥', lte: '≤', eq: '=' } as const;

/** Numbers as people read them: no float noise (0.30000000000000004), no exponent for usual sizes. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

const HOLDS = {
  gt: (v: number, t: number) => v > t,
  lt: (v: number, t: number) => v < t,
  gte: (v: number, t: number) => v >= t,
  lte: (v: number, t: number) => v <= t,
  eq: (v: number, t: number) => v === t,
};

/**
 * "95 > 90" while the rule's condition holds; "71 (threshold > 90)" once it does not (a
 * resolution), so the text never claims 71 > 90. Without a condition: "95 (threshold 90)".
 * Without a reading (a read failure, a heartbeat, the platform): "no reading".
 */
export function valueAgainstThreshold(message: AlertMessage): string {
  if (message.currentValue === null) return 'no reading';
  const value = formatNumber(message.currentValue);
  if (message.threshold === null) return value;
  const threshold = formatNumber(message.threshold);
  if (!message.condition) return `${value} (threshold ${threshold})`;
  const operator = OPERATORS[message.condition];
  return HOLDS[message.condition](message.currentValue, message.threshold)
    ? `${value} ${operator} ${threshold}`
    : `${value} (threshold ${operator} ${threshold})`;
}

/** What the summary says in brackets: the metric against its threshold, or, with no reading, the detail. */
function reading(message: AlertMessage): string {
  if (message.metric !== null && message.currentValue !== null)
    return ` (${message.metric} ${valueAgainstThreshold(message)})`;
  return message.detail ? ` (${message.detail.slice(0, 200)})` : '';
}

export const statusWord = (message: AlertMessage) =>
  ({ triggered: 'Triggered', acknowledged: 'Acknowledged', resolved: 'Resolved' })[message.status];

/** One line: "[CRITICAL] Triggered: Disk usage high (disk_used_percent 95 > 90) on prod-cluster". */
export function alertSummary(message: AlertMessage): string {
  const cluster = message.cluster ? ` on ${message.cluster}` : '';
  return `[${message.severity.toUpperCase()}] ${statusWord(message)}: ${message.title}${reading(message)}${cluster}`;
}

/** The page's acknowledge/resolve links as text lines (none when it carries no links). */
export function actionLines(message: AlertMessage): string[] {
  if (!message.actions) return [];
  return [
    `Acknowledge:       ${message.actions.acknowledgeUrl}`,
    `Resolve:           ${message.actions.resolveUrl}`,
    `(each link works once, until ${message.actions.expiresAt})`,
  ];
}

/** The plain-text body of email and outbox messages. */
export function alertTextBody(message: AlertMessage): string {
  return [
    alertSummary(message),
    '',
    `Status:    ${message.status}`,
    `Severity:  ${message.severity}`,
    ...(message.source === 'rule'
      ? [`Rule:      ${message.ruleName ?? message.title}`]
      : [`Source:    ${message.source}`, `Title:     ${message.title}`]),
    ...(message.metric === null
      ? []
      : [`Metric:    ${message.metric}`, `Value:     ${valueAgainstThreshold(message)}`]),
    ...(message.detail ? [`Detail:    ${message.detail}`] : []),
    `Cluster:   ${message.cluster ?? '-'}`,
    `Incident:  ${message.incidentId}`,
    `At:        ${message.occurredAt}`,
    '',
    `Open the incident: ${message.incidentUrl}`,
    ...actionLines(message),
    '',
    '-- warehouse-watch',
  ].join('\n');
}
