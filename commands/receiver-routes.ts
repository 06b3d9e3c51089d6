/**
 * The receivers keyed in their address, `POST /integrations/<kind>/<routing key>`: Prometheus
 * Alertmanager's webhook (`alertmanager`), Amazon SNS (`sns`, CloudWatch alarms) and any JSON
 * (`generic`). Each is a thin adapter: the shared routing-key gate (the Events API v2 address's
 * key hash, per-key rate and lookup), the integration's kind checked, the payload read into
 * normalized alerts by its pure reader, every alert handed to the one intake. No sign-in: the key
 * is the credential. Refusals are problem+json; one that refuses changes nothing, since a payload
 * is read whole before its first alert is taken.
 *
 * Every key that routes nowhere (malformed, never issued, rotated away, revoked, deleted) is the
 * one identical 404. The key's shape and rate are checked before the body is read.
 */
import type { SnsConfig } from '../src/contract/bodies/integration-config.js';
import type { ReceiverAccepted, SnsSubscriptionAnswer } from '../src/contract/receivers.js';
import Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import type { NormalizedAlert } from '../src/events/inbound-alert.js';
import type { SnsGateway } from '../src/gateways/sns/sns-certificates.js';
import { hasBody, readBodyText } from '../src/http/body.js';
import { badRequest, HttpProblem, serviceUnavailable, tooManyRequests } from '../src/http/problem.js';
import { readAlertmanagerWebhook } from './alertmanager-webhook.js';
import { readGenericJson } from './generic-json.js';
import { isRoutingKeyShape } from './integration-key.js';
import type { Read } from './receiver-alert.js';
import { PATH_KEYED_KINDS, RECEIVER_PATH_PREFIX, receiverPath, type PathKeyedKind } from './receiver-paths.js';
import type { RoutedIntegration, RoutingKeyGate } from './routing-key-gate.js';
import { readCloudWatchAlarm, readSnsMessage } from './sns-message.js';

export interface ReceiverDeps {
  gate: RoutingKeyGate;
  /** Decides and records one alert (src/process/inbound/alert-intake.ts). */
  acceptAlert: (
    tenantId: string,
    alert: NormalizedAlert,
    policyId: string,
    correlationId: string,
  ) => Promise<{ outcome: ReceiverAccepted['alerts'][number]['outcome']; incidentId: string | null }>;
  sns: SnsGateway;
}

/** The one answer for every key that routes nowhere. */
const unknownKey = () => new HttpProblem(404, 'Not Found', 'no integration has this address');
const unsupported = (expected: string) =>
  new HttpProblem(415, 'Unsupported Media Type', `the body must be sent as ${expected}`);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('the request body is not valid JSON', [{ path: '', message: 'not valid JSON' }]);
  }
}

const asObject = (value: unknown): Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest('body must be a JSON object', [{ path: '', message: 'body must be a JSON object' }]);
  return value as Record<string, unknown>;
};

const readOrRefuse = <T>(read: Read<T>, what: string): T => {
  if (!read.ok) throw badRequest(`the ${what} is invalid`, read.errors);
  return read.value;
};

export function receiverRoutes(deps: ReceiverDeps) {
  const router = new Router();
  const { gate } = deps;

  const accept = async (integration: RoutedIntegration, alerts: NormalizedAlert[], correlationId: string) => {
    const answer: ReceiverAccepted = { status: 'accepted', alerts: [] };
    // In the payload's order: a group's firing and resolved alerts of one key apply as sent.
    for (const alert of alerts) {
      const taken = await deps.acceptAlert(integration.tenantId, alert, integration.escalationPolicyId, correlationId);
      answer.alerts.push({
        dedup_key: alert.dedupKey,
        action: alert.action,
        outcome: taken.outcome,
        incident_id: taken.incidentId,
      });
    }
    return answer;
  };

  async function sns(
    ctx: Context,
    integration: RoutedIntegration,
    body: Record<string, unknown>,
    correlationId: string,
  ) {
    const header = ctx.get('x-amz-sns-message-type') || undefined;
    const message = readOrRefuse(readSnsMessage(body, header), 'SNS message');
    // Before any fetch: a topic the integration does not name is refused on its face.
    const topics = (integration.config as SnsConfig).topic_arns ?? [];
    if (topics.length > 0 && !topics.includes(message.TopicArn))
      throw badRequest("the message's topic is not one the integration takes", [
        { path: '/TopicArn', message: "not in the integration's config.topic_arns" },
      ]);
    const verdict = await deps.sns.verify(message);
    if (verdict === 'untrusted')
      throw badRequest('the signing certificate is not at an Amazon SNS address', [
        { path: '/SigningCertURL', message: 'must be an https://sns.<region>.amazonaws.com/….pem address' },
      ]);
    if (verdict === 'unavailable')
      throw serviceUnavailable('the signing certificate could not be fetched; retry later', 60);
    if (verdict === 'invalid')
      throw badRequest('the message signature is not valid', [
        { path: '/Signature', message: "not the signing certificate's signature of this message" },
      ]);
    if (message.Type === 'SubscriptionConfirmation') {
      const confirmed = await deps.sns.confirm(message.SubscribeURL!);
      if (confirmed === 'untrusted')
        throw badRequest('the subscription address is not an Amazon SNS address', [
          { path: '/SubscribeURL', message: 'must be an https://sns.<region>.amazonaws.com/ address' },
        ]);
      if (confirmed === 'failed')
        throw serviceUnavailable('Amazon SNS did not take the confirmation; it sends the confirmation again', 60);
      const answer: SnsSubscriptionAnswer = { status: 'subscription confirmed', topic_arn: message.TopicArn };
      ctx.body = answer;
      return;
    }
    if (message.Type === 'UnsubscribeConfirmation') {
      // Not re-subscribed: whoever unsubscribed meant it; a new subscription confirms again.
      const answer: SnsSubscriptionAnswer = { status: 'unsubscribe noted', topic_arn: message.TopicArn };
      ctx.body = answer;
      return;
    }
    const alert = readOrRefuse(readCloudWatchAlarm(message, integration), 'CloudWatch alarm');
    ctx.status = 202;
    ctx.body = await accept(integration, alert === null ? [] : [alert], correlationId);
  }

  const receive = (kind: PathKeyedKind) => async (ctx: Context & { params: Record<string, string> }) => {
    ctx.set('Cache-Control', 'no-store');
    const key = ctx.params.key ?? '';
    if (!isRoutingKeyShape(key)) throw unknownKey();
    const keyHash = await gate.hash(key);
    const wait = await gate.take(keyHash);
    if (wait !== undefined)
      throw tooManyRequests(`at most ${gate.eventsPerKeyPerMinute} events per minute per routing key`, wait);
    // SNS posts its JSON as text/plain; the others send JSON as JSON.
    const types = kind === 'sns' ? ['text/plain', 'application/json'] : ['application/json', 'application/*+json'];
    if (hasBody(ctx.req) && !ctx.is(types)) throw unsupported(types.join(' or '));
    const document = parseJson(await readBodyText(ctx));
    const integration = await gate.find(keyHash);
    if (!integration) throw unknownKey();
    if (integration.kind !== kind)
      throw badRequest(
        `this integration's kind is ${integration.kind}: its sender posts to ${
          integration.kind === 'events_v2' ? '/v2/enqueue' : `${RECEIVER_PATH_PREFIX}${integration.kind}/<routing key>`
        }`,
      );
    const correlationId = String(ctx.state.requestId ?? randomUUID());
    if (kind === 'sns') return sns(ctx, integration, asObject(document), correlationId);
    const alerts =
      kind === 'alertmanager'
        ? readOrRefuse(readAlertmanagerWebhook(asObject(document), integration), 'Alertmanager payload')
        : [readOrRefuse(readGenericJson(document, integration), 'event')];
    ctx.status = 202;
    ctx.body = await accept(integration, alerts, correlationId);
  };
  for (const kind of PATH_KEYED_KINDS) router.post(receiverPath(kind, ':key'), receive(kind));
  return router;
}
