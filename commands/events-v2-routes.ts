/**
 * PagerDuty's Events API v2 address, `POST /v2/enqueue` (alerts) and `POST /v2/change/enqueue`
 * (changes): no sign-in, the `routing_key` in the body is the credential, and every answer is
 * PagerDuty's own shape (src/contract/events-v2.ts), so Alertmanager's `pagerduty_configs`,
 * Grafana's PagerDuty contact point and Airflow's provider work by changing only their URL.
 *
 * What a caller can learn is only whether its own event was taken: every key that routes nowhere
 * (never issued, rotated away past its grace, revoked, its integration deleted) is the one
 * identical 400 that names no integration and no tenant. The checks run in an order that keeps it
 * so: the body's size (512 KB) and JSON, the key's shape, the per-key rate limit (by the key's
 * keyed hash, whether it exists or not), the event's fields, and only then the lookup by keyed hash.
 */
import type { EventsV2Accepted, EventsV2Refused } from '../src/contract/events-v2.js';
import Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { INBOUND_LIMITS } from '../src/contract/inbound-limits.js';
import type { NormalizedAlert } from '../src/events/inbound-alert.js';
import { hasBody, readCappedBody } from '../src/http/body.js';
import { normalizedAlert, readAlertEvent, readChangeEvent, routingKeyErrors, type ChangeEventV2 } from './events-v2.js';
import type { RoutedIntegration, RoutingKeyGate } from './routing-key-gate.js';

export const EVENTS_V2_PATHS = { alert: '/v2/enqueue', change: '/v2/change/enqueue' } as const;

export type { RoutedIntegration };

export interface EventsV2Deps {
  /** The routing key's hash, per-key rate and lookup, shared with the other receivers. */
  gate: RoutingKeyGate;
  /** Decides and records the alert (src/process/inbound/alert-intake.ts). */
  acceptAlert: (tenantId: string, alert: NormalizedAlert, policyId: string, correlationId: string) => Promise<unknown>;
  acceptChange: (integration: RoutedIntegration, change: ChangeEventV2, correlationId: string) => Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly answer: EventsV2Refused,
    readonly retryAfter?: number,
  ) {
    super(answer.message);
  }
}

const invalid = (errors: string[]) =>
  new Refusal(400, { status: 'invalid event', message: 'Event object is invalid', errors });
const unrecognized = () =>
  new Refusal(400, {
    status: 'Unrecognized object',
    message: 'Event object format is unrecognized',
    errors: ['JSON parse error'],
  });
/** The one answer for every key that routes nowhere. */
const unknownKey = () => invalid(['Invalid routing key']);

function readBody(ctx: Context): Promise<string> {
  const max = INBOUND_LIMITS.maxPayloadBytes;
  if (!hasBody(ctx.req)) return Promise.resolve('');
  return readCappedBody(ctx, max, {
    tooLarge: () =>
      new Refusal(413, {
        status: 'invalid event',
        message: 'Event object is too large',
        errors: [`Events API payloads are limited to ${max} bytes (512 KB)`],
      }),
    endedEarly: unrecognized,
  });
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw unrecognized();
}

export function eventsV2Routes(deps: EventsV2Deps) {
  const router = new Router();
  const { gate } = deps;

  /** The body, the key's shape, the rate, then `read` of the fields, then the lookup. */
  const handle = async <T>(
    ctx: Context,
    read: (body: Record<string, unknown>) => { ok: true; value: T } | { ok: false; errors: string[] },
    accept: (integration: RoutedIntegration, value: T, correlationId: string) => Promise<EventsV2Accepted>,
  ) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      // JSON, as every Events API v2 client sends it; any other type is refused before a byte is read.
      if (hasBody(ctx.req) && !ctx.is('application/json', 'application/*+json')) throw unrecognized();
      const body = parseObject(await readBody(ctx));
      const keyErrors = routingKeyErrors(body);
      if (keyErrors.length > 0) throw invalid(keyErrors);
      const keyHash = await gate.hash(body.routing_key as string);
      const wait = await gate.take(keyHash);
      if (wait !== undefined)
        throw new Refusal(
          429,
          {
            status: 'throttle event',
            message: 'Request Limit Exceeded',
            errors: [`at most ${gate.eventsPerKeyPerMinute} events per minute per routing key`],
          },
          wait,
        );
      const event = read(body);
      if (!event.ok) throw invalid(event.errors);
      const integration = await gate.find(keyHash);
      if (!integration) throw unknownKey();
      ctx.status = 202;
      ctx.body = await accept(integration, event.value, String(ctx.state.requestId ?? randomUUID()));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.status = error.status;
      if (error.retryAfter !== undefined) ctx.set('Retry-After', String(error.retryAfter));
      ctx.body = error.answer;
    }
  };

  router.post(EVENTS_V2_PATHS.alert, (ctx) =>
    handle(ctx, readAlertEvent, async (integration, event, correlationId) => {
      // A trigger without a key gets a new one, answered so the sender can resolve it later.
      const dedupKey = event.dedupKey ?? randomUUID().replaceAll('-', '');
      await deps.acceptAlert(
        integration.tenantId,
        normalizedAlert(event, integration, dedupKey),
        integration.escalationPolicyId,
        correlationId,
      );
      return { status: 'success', message: 'Event processed', dedup_key: dedupKey };
    }),
  );
  router.post(EVENTS_V2_PATHS.change, (ctx) =>
    handle(ctx, readChangeEvent, async (integration, change, correlationId) => {
      await deps.acceptChange(integration, change, correlationId);
      return { status: 'success', message: 'Change event processed' };
    }),
  );
  return router;
}
