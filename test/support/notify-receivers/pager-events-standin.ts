/**
 * A stand-in for the PagerDuty Events API v2 (POST /v2/enqueue) that validates events the way the
 * service documents: 202 {status: "success", dedup_key} for a valid event, 400 {status: "invalid
 * event", errors} otherwise, and 429 when a test rate-limits it. A routing key must be the 32
 * characters of an integration key: "Send an Event" (Events API v2,
 * https://v2.developer.pagerduty.com/docs/send-an-event-events-api-v2) shows the 400 for any other
 * length: "Length of 'routing_key' is incorrect (should be 32 characters)". It accepts 120 events a
 * minute per routing key and answers the next ones 429 without Retry-After, as PagerDuty does
 * ("Events - 120/min (enforced per-integration-key)", PagerDuty support on its community forum).
 */
import { json, startHttpReceiver, type HttpReceiver } from './http-receiver.js';

export interface PagerStandIn extends HttpReceiver {
  eventsUrl: string;
  events: Array<Record<string, unknown>>;
  /** The next `count` events are answered 429, with Retry-After when given. */
  rateLimit(count: number, retryAfter?: string): void;
}

export interface PagerStandInOptions {
  /** The stand-in's clock for the per-key rate limit (virtual time in tests); Date.now by default. */
  now?: () => number;
  /** Events accepted per routing key in any 60 s; PagerDuty's 120 by default. */
  perKeyPerMinute?: number;
}

const SEVERITIES = ['critical', 'error', 'warning', 'info'];
const ACTIONS = ['trigger', 'acknowledge', 'resolve'];

/** The API's documented requirements, as error strings; empty when the event is valid. */
export function eventProblems(event: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const text = (value: unknown, max: number) => typeof value === 'string' && value.length > 0 && value.length <= max;
  if (typeof event.routing_key !== 'string') problems.push("'routing_key' is missing");
  else if (event.routing_key.length !== 32)
    problems.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  if (!ACTIONS.includes(event.event_action as string)) problems.push("'event_action' is invalid");
  if (event.dedup_key !== undefined && !text(event.dedup_key, 255)) problems.push("'dedup_key' is invalid");
  if (event.event_action !== 'trigger' && event.dedup_key === undefined)
    problems.push("'dedup_key' is required for acknowledge and resolve");
  if (event.event_action === 'trigger') {
    const payload = event.payload as Record<string, unknown> | undefined;
    if (!payload || typeof payload !== 'object') return [...problems, "'payload' is missing"];
    if (!text(payload.summary, 1024)) problems.push("'payload.summary' is missing or longer than 1024 characters");
    if (!text(payload.source, 255)) problems.push("'payload.source' is missing");
    if (!SEVERITIES.includes(payload.severity as string))
      problems.push("'payload.severity' must be one of critical, error, warning, info");
    if (payload.timestamp !== undefined && Number.isNaN(Date.parse(String(payload.timestamp))))
      problems.push("'payload.timestamp' is not ISO 8601");
    if (
      payload.custom_details !== undefined &&
      (typeof payload.custom_details !== 'object' || payload.custom_details === null)
    )
      problems.push("'payload.custom_details' must be an object");
  }
  return problems;
}

const THROTTLED = { status: 'throttled', message: 'Requests for this service are arriving too quickly' };

export async function startPagerStandIn(options: PagerStandInOptions = {}): Promise<PagerStandIn> {
  const now = options.now ?? Date.now;
  const perMinute = options.perKeyPerMinute ?? 120;
  const events: Array<Record<string, unknown>> = [];
  const limits: Array<string | undefined> = [];
  /** Accept times of the last minute, per routing key. */
  const accepted = new Map<string, number[]>();
  const receiver = await startHttpReceiver((request) => {
    if (request.method !== 'POST' || request.path !== '/v2/enqueue') return json(404, { status: 'not found' });
    if (limits.length > 0) {
      const retryAfter = limits.shift();
      return json(429, THROTTLED, retryAfter ? { 'retry-after': retryAfter } : {});
    }
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: ['body is not JSON'] });
    }
    const problems = eventProblems(event);
    if (problems.length > 0)
      return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: problems });
    const key = String(event.routing_key);
    const recent = (accepted.get(key) ?? []).filter((at) => at > now() - 60_000);
    if (recent.length >= perMinute) return json(429, THROTTLED);
    accepted.set(key, [...recent, now()]);
    events.push(event);
    return json(202, { status: 'success', message: 'Event processed', dedup_key: event.dedup_key ?? 'generated' });
  });
  return Object.assign(receiver, {
    eventsUrl: `${receiver.url}/v2/enqueue`,
    events,
    rateLimit: (count: number, retryAfter?: string) =>
      void limits.push(...new Array<string | undefined>(count).fill(retryAfter)),
  });
}
