/**
 * The notify port: deliver one alert message to one target over one medium, and say what came of
 * it. Callers (the escalation manager, the channel test route) record the outcome as an event; so
 * `deliver` never throws and the outcome holds nothing secret: the target is described (channel
 * id, masked address), never given by its URL or key.
 *
 * Media: chat, pager and webhook are notification channels (SPEC.md, Notification channel) and
 * take the channel's stored config as it is; email is a channel or a user's address; sms is a
 * user's phone number.
 */
import type { IncidentSource } from '../../contract/vocabulary.js';
import type { Condition, NotifyMedium, Severity } from '../../events/vocabulary.js';
import type { OutboundErrorKind } from '../http/outbound-outcome.js';

export type { NotifyMedium };
/** An alert's severity is its rule's (src/events/vocabulary.ts). */
export type AlertSeverity = Severity;
export type AlertStatus = 'triggered' | 'acknowledged' | 'resolved';

/** What the pager Events API v2 accepts as a severity; a pager channel maps each alert severity onto one. */
export { PAGER_SEVERITIES, type PagerSeverity } from '../../contract/vocabulary.js';

/** What every medium says about an incident. One message per incident state change. */
export interface AlertMessage {
  incidentId: string;
  status: AlertStatus;
  severity: AlertSeverity;
  /** What opened the incident (a rule, rules that cannot be read, a heartbeat, the platform). */
  source: IncidentSource;
  /** The headline: a rule incident's is its rule's name. */
  title: string;
  /** Why, in the source's words (the warehouse's message, a heartbeat's note); null: nothing to add. */
  detail: string | null;
  /** The rule's name, metric, reading and threshold: null when the incident has no rule or no reading. */
  ruleName: string | null;
  metric: string | null;
  currentValue: number | null;
  threshold: number | null;
  /** The rule's comparison; shown as "95 > 90" when given, "95 (threshold 90)" otherwise. */
  condition?: Condition;
  /** The warehouse cluster, when the rule watches one. */
  cluster: string | null;
  /** The incident's page in the platform. */
  incidentUrl: string;
  /** When the state change happened (ISO 8601). */
  occurredAt: string;
  /** Links acting on the incident without signing in (src/action-links); on pages of a triggered incident only. */
  actions?: AlertActions;
}

/** A page's signed, single-use links: each opens a confirmation page whose button does the action. */
export interface AlertActions {
  acknowledgeUrl: string;
  resolveUrl: string;
  /** When both stop working (ISO 8601). */
  expiresAt: string;
}

export interface ChatTarget {
  medium: 'chat';
  channelId: string;
  config: { webhook_url: string; channel_name: string };
}
export interface EmailTarget {
  medium: 'email';
  /** Absent when the recipient is a user rather than an email channel. */
  channelId?: string;
  /** Absent subject_template: the default subject. */
  config: { recipients: string[]; subject_template?: string };
}
export interface PagerTarget {
  medium: 'pager';
  channelId: string;
  config: { integration_key: string; severity_mapping: Partial<Record<AlertSeverity, string>> };
}
export interface WebhookTarget {
  medium: 'webhook';
  channelId: string;
  config: { url: string; headers?: Record<string, string>; method: 'POST' | 'PUT' };
  /** The channel's signing secret (webhook-signature.ts); receivers verify X-Signature with it. */
  signingSecret: string;
}
export interface SmsTarget {
  medium: 'sms';
  /** The user being paged, for the description. */
  userId?: string;
  /** E.164, e.g. +447700900123. */
  phone: string;
}
export type NotifyTarget = ChatTarget | EmailTarget | PagerTarget | WebhookTarget | SmsTarget;

/**
 * HTTP failures, plus: the mail server refused or failed, the outbox file could not be written,
 * the target is unusable (e.g. not an E.164 number), an adapter failed unexpectedly (a bug).
 */
export type DeliveryErrorKind = OutboundErrorKind | 'smtp' | 'outbox' | 'invalid_target' | 'internal';

export interface DeliveryOutcome {
  ok: boolean;
  medium: NotifyMedium;
  /** Non-secret description: `channel:<id>`, `g***@example.com`, `+44*******123`. */
  target: string;
  /** The HTTP status, or the SMTP reply code for email sent over SMTP. */
  status_code?: number;
  latency_ms: number;
  response_excerpt?: string;
  error?: { kind: DeliveryErrorKind; message: string };
  /** Attempts made (retries included). */
  attempts?: number;
  /** Where an outbox delivery was written (file name only). */
  outbox_file?: string;
}

export interface NotifyPort {
  /** `idempotencyKey`: one per delivery (e.g. incident, stage, target); the same on every retry. */
  deliver(target: NotifyTarget, message: AlertMessage, idempotencyKey: string): Promise<DeliveryOutcome>;
}

/** One medium's adapter; the notifier routes each target to the adapter of its medium. */
export interface MediumAdapter<T extends NotifyTarget = NotifyTarget> {
  readonly medium: T['medium'];
  deliver(target: T, message: AlertMessage, idempotencyKey: string): Promise<DeliveryOutcome>;
}
