/**
 * PagerDuty's Events API v2 on the wire (docs/integrations.md names PagerDuty's pages): reads an
 * alert event (`POST /v2/enqueue`) or a change event (`POST /v2/change/enqueue`) into our shapes,
 * or says every way it is invalid, in the words PagerDuty's answers use. Pure: the routes
 * (commands/events-v2-routes.ts) read the body, find the integration and answer.
 *
 * Unknown top-level fields are ignored, as PagerDuty does (senders add their own).
 */
import { INBOUND_LIMITS } from '../src/contract/inbound-limits.js';
import {
  INBOUND_ACTIONS,
  type InboundAction,
  type NormalizedAlert,
  type SenderFields,
} from '../src/events/inbound-alert.js';
import { PAGER_SEVERITIES } from '../src/contract/vocabulary.js';
import type { Severity } from '../src/contract/vocabulary.js';

export interface AlertEventV2 {
  action: InboundAction;
  /** null: a trigger without one (the route makes one and answers it). */
  dedupKey: string | null;
  title: string | null;
  sender: SenderFields;
}

export interface ChangeEventV2 {
  summary: string;
  source: string | null;
  timestamp: string | null;
  customDetails: unknown;
  links: { href: string; text: string | null }[];
}

export type Read<T> = { ok: true; value: T } | { ok: false; errors: string[] };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The routing key's own errors (checked first: the route looks nothing up without a well-formed key). */
export function routingKeyErrors(body: Json): string[] {
  const key = body.routing_key;
  if (blank(key)) return ["'routing_key' is missing or blank"];
  if (typeof key !== 'string') return ["'routing_key' must be a string"];
  if (key.length !== INBOUND_LIMITS.routingKeyChars)
    return [`Length of 'routing_key' is incorrect (should be ${INBOUND_LIMITS.routingKeyChars} characters)`];
  return [];
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 instant (PagerDuty's examples write offsets as `+0000`) as ours, or undefined. */
export function instantOf(text: string): string | undefined {
  if (!ISO_8601.test(text)) return undefined;
  const withColon = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(withColon);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Reads optional strings, links and images, pushing an error for each bad one. */
function reader(errors: string[]) {
  const optionalString = (value: unknown, name: string): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      errors.push(`'${name}' must be a string`);
      return null;
    }
    return value;
  };
  const timestamp = (value: unknown, name: string): string | null => {
    const text = optionalString(value, name);
    if (text === null) return null;
    const at = instantOf(text);
    if (at === undefined) errors.push(`'${name}' is invalid (must be an ISO 8601 date-time)`);
    return at ?? null;
  };
  const list = <T>(value: unknown, name: string, item: (entry: Json, at: string) => T | null): T[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      errors.push(`'${name}' must be an array`);
      return [];
    }
    return value.flatMap((entry, index) => {
      const at = `${name}[${index}]`;
      if (!isObject(entry)) {
        errors.push(`'${at}' must be an object`);
        return [];
      }
      const read = item(entry, at);
      return read === null ? [] : [read];
    });
  };
  const required = (entry: Json, field: string, at: string): string | null => {
    if (blank(entry[field])) {
      errors.push(`'${at}.${field}' is missing or blank`);
      return null;
    }
    return optionalString(entry[field], `${at}.${field}`);
  };
  const links = (value: unknown) =>
    list(value, 'links', (entry, at) => {
      const href = required(entry, 'href', at);
      const text = optionalString(entry.text, `${at}.text`);
      return href === null ? null : { href, text };
    });
  const images = (value: unknown) =>
    list(value, 'images', (entry, at) => {
      const src = required(entry, 'src', at);
      const href = optionalString(entry.href, `${at}.href`);
      const alt = optionalString(entry.alt, `${at}.alt`);
      return src === null ? null : { src, href, alt };
    });
  return { optionalString, timestamp, links, images };
}

const summaryErrors = (summary: unknown, name: string): string[] => {
  if (blank(summary)) return [`'${name}' is missing or blank`];
  if (typeof summary !== 'string') return [`'${name}' must be a string`];
  if (summary.length > INBOUND_LIMITS.maxSummaryChars)
    return [`Length of '${name}' is too long (maximum is ${INBOUND_LIMITS.maxSummaryChars} characters)`];
  return [];
};

/** An alert event (`/v2/enqueue`), the routing key aside (routingKeyErrors). */
export function readAlertEvent(body: Json): Read<AlertEventV2> {
  const errors: string[] = [];
  const read = reader(errors);
  const action = body.event_action;
  if (blank(action)) errors.push("'event_action' is missing or blank");
  else if (!(INBOUND_ACTIONS as readonly unknown[]).includes(action))
    errors.push(`'event_action' is invalid (must be one of ${INBOUND_ACTIONS.join(', ')})`);

  let dedupKey: string | null = null;
  if (!blank(body.dedup_key)) {
    if (typeof body.dedup_key !== 'string') errors.push("'dedup_key' must be a string");
    else if (body.dedup_key.length > INBOUND_LIMITS.maxDedupKeyChars)
      errors.push(`Length of 'dedup_key' is too long (maximum is ${INBOUND_LIMITS.maxDedupKeyChars} characters)`);
    else dedupKey = body.dedup_key;
  } else if (action === 'acknowledge' || action === 'resolve') errors.push("'dedup_key' is missing or blank");

  const trigger = action === 'trigger';
  const payload = body.payload;
  let title: string | null = null;
  let severity: string | null = null;
  let fields: Pick<SenderFields, 'source' | 'component' | 'group' | 'class' | 'timestamp' | 'custom_details'> = {
    source: null,
    component: null,
    group: null,
    class: null,
    timestamp: null,
    custom_details: null,
  };
  if (payload === undefined || payload === null) {
    if (trigger) errors.push("'payload' is missing or blank");
  } else if (!isObject(payload)) errors.push("'payload' must be an object");
  else {
    // An acknowledge or resolve may carry a payload; only a trigger's is required whole.
    if (trigger || payload.summary !== undefined) {
      const summaryProblems = summaryErrors(payload.summary, 'payload.summary');
      errors.push(...summaryProblems);
      if (summaryProblems.length === 0) title = payload.summary as string;
    }
    if (trigger && blank(payload.source)) errors.push("'payload.source' is missing or blank");
    if (trigger && blank(payload.severity)) errors.push("'payload.severity' is missing or blank");
    else if (payload.severity !== undefined && !(PAGER_SEVERITIES as readonly unknown[]).includes(payload.severity))
      errors.push(`'payload.severity' is invalid (must be one of ${PAGER_SEVERITIES.join(', ')})`);
    else if (typeof payload.severity === 'string') severity = payload.severity;
    fields = {
      source: read.optionalString(payload.source, 'payload.source'),
      component: read.optionalString(payload.component, 'payload.component'),
      group: read.optionalString(payload.group, 'payload.group'),
      class: read.optionalString(payload.class, 'payload.class'),
      timestamp: read.timestamp(payload.timestamp, 'payload.timestamp'),
      custom_details: payload.custom_details ?? null,
    };
  }
  const sender: SenderFields = {
    ...fields,
    severity,
    links: read.links(body.links),
    images: read.images(body.images),
    client: read.optionalString(body.client, 'client'),
    client_url: read.optionalString(body.client_url, 'client_url'),
    labels: null,
  };
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { action: action as InboundAction, dedupKey, title, sender } };
}

/** A change event (`/v2/change/enqueue`), the routing key aside. */
export function readChangeEvent(body: Json): Read<ChangeEventV2> {
  const errors: string[] = [];
  const read = reader(errors);
  const payload = body.payload;
  if (payload === undefined || payload === null) return { ok: false, errors: ["'payload' is missing or blank"] };
  if (!isObject(payload)) return { ok: false, errors: ["'payload' must be an object"] };
  errors.push(...summaryErrors(payload.summary, 'payload.summary'));
  const change: ChangeEventV2 = {
    summary: typeof payload.summary === 'string' ? payload.summary : '',
    source: read.optionalString(payload.source, 'payload.source'),
    timestamp: read.timestamp(payload.timestamp, 'payload.timestamp'),
    customDetails: payload.custom_details ?? null,
    links: read.links(body.links),
  };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: change };
}

/** The alert in our words: the integration's severity map applied, the dedup key decided. */
export function normalizedAlert(
  event: AlertEventV2,
  integration: { id: string; severityMap: Record<string, Severity>; defaultSeverity: Severity },
  dedupKey: string,
): NormalizedAlert {
  const word = event.sender.severity;
  return {
    integrationId: integration.id,
    dedupKey,
    action: event.action,
    title: event.title,
    severity: (word !== null ? integration.severityMap[word] : undefined) ?? integration.defaultSeverity,
    sender: event.sender,
  };
}
