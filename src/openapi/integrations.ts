/** Integrations, PagerDuty's Events API v2 address and the receivers keyed in their address (commands/integration-routes.ts, commands/events-v2-routes.ts, commands/receiver-routes.ts, queries/integrations.ts; docs/integrations.md). */
import { z } from 'zod';
import { integrationBodySchema, rotateRoutingKeyBodySchema } from '../contract/bodies/integrations.js';
import { eventsV2AcceptedSchema, eventsV2RefusedSchema } from '../contract/events-v2.js';
import { INBOUND_LIMITS } from '../contract/inbound-limits.js';
import { changeEventSchema, integrationSchema, integrationWithKeySchema } from '../contract/integrations.js';
import { receiverAcceptedSchema, snsSubscriptionAnswerSchema } from '../contract/receivers.js';
import { PAGER_SEVERITIES } from '../contract/vocabulary.js';
import type { OperationDoc } from './operation.js';
import { historyEntrySchema, resourceId } from './shared-schemas.js';

const tag = 'Integrations';

const integrationResponse = (description: string, data: z.ZodType = integrationSchema, status: 200 | 201 = 200) =>
  ({
    kind: 'envelope',
    status,
    description,
    data,
    etag: true,
    ...(status === 201 ? { location: true } : {}),
  }) as const;

const BODY_RULES =
  "`escalation_policy_id` must be a policy of the tenant; the name must not be another integration's of the tenant (case ignored: 409); `kind` cannot change (409).";

const link = z.object({ href: z.string(), text: z.string().optional() });
/** What a sender posts to /v2/enqueue (PagerDuty's Events API v2; the route reads it itself, answering PagerDuty's errors). */
const alertEventSchema = z.object({
  routing_key: z
    .string()
    .meta({ description: `the integration's routing key (${INBOUND_LIMITS.routingKeyChars} characters)` }),
  event_action: z.enum(['trigger', 'acknowledge', 'resolve']),
  dedup_key: z.string().max(INBOUND_LIMITS.maxDedupKeyChars).optional().meta({
    description: 'required to acknowledge or resolve; a trigger without one gets a new one, answered',
  }),
  payload: z
    .object({
      summary: z.string().max(INBOUND_LIMITS.maxSummaryChars).meta({ description: "the incident's title" }),
      source: z.string(),
      severity: z.enum(PAGER_SEVERITIES).meta({ description: "mapped onto ours by the integration's severity_map" }),
      timestamp: z.string().optional().meta({ description: 'ISO 8601' }),
      component: z.string().optional(),
      group: z.string().optional(),
      class: z.string().optional(),
      custom_details: z.unknown().optional(),
    })
    .optional()
    .meta({ description: 'required to trigger (summary, source and severity)' }),
  links: z.array(link).optional(),
  images: z.array(z.object({ src: z.string(), href: z.string().optional(), alt: z.string().optional() })).optional(),
  client: z.string().optional(),
  client_url: z.string().optional(),
});
const changeEventBodySchema = z.object({
  routing_key: z.string(),
  payload: z.object({
    summary: z.string().max(INBOUND_LIMITS.maxSummaryChars),
    source: z.string().optional(),
    timestamp: z.string().optional(),
    custom_details: z.unknown().optional(),
  }),
  links: z.array(link).optional(),
});

const refused = (description: string) => ({
  description,
  contentType: 'application/json',
  schema: eventsV2RefusedSchema,
});
const eventsRefusals = {
  400: refused(
    'PagerDuty\'s `{"status":"invalid event","message":"Event object is invalid","errors":[…]}` naming every bad field; a key that routes nowhere (never issued, rotated away past its grace, revoked, deleted) is the one answer `errors: ["Invalid routing key"]`; a body that is not a JSON object, or not sent as `application/json`: `Unrecognized object`',
  ),
  413: refused(`A body over ${INBOUND_LIMITS.maxPayloadBytes} bytes (PagerDuty's 512 KB)`),
  429: refused(
    "More than INTEGRATION_EVENTS_PER_KEY_PER_MINUTE events (default 120, PagerDuty's) to one routing key in a minute (Retry-After)",
  ),
};
const PUBLIC =
  "No sign-in: the `routing_key` in the body is the credential. Every answer is PagerDuty's own shape (not problem+json), so a sender of PagerDuty's Events API v2 works by changing only its URL.";

export const integrationOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/integrations',
    tag,
    summary: 'List integrations',
    description: 'Newest first. Routing keys are never listed, only their masked last four characters.',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'A page of integrations',
      data: integrationSchema,
      list: true,
    },
  },
  {
    method: 'post',
    path: '/integrations',
    tag,
    summary: 'Create an integration',
    body: integrationBodySchema,
    description: `The answer carries the routing key (\`routing_key\`) and where to send events (\`events_url\`): shown this once. ${BODY_RULES}`,
    response: integrationResponse('The integration and its routing key, shown once', integrationWithKeySchema, 201),
  },
  {
    method: 'get',
    path: '/integrations/:id',
    tag,
    summary: 'Get an integration',
    response: integrationResponse('The integration'),
  },
  {
    method: 'put',
    path: '/integrations/:id',
    tag,
    summary: 'Replace an integration',
    body: integrationBodySchema,
    ifMatch: true,
    description: BODY_RULES,
    problems: { 409: 'Another integration of the tenant has this name, or the kind would change' },
    response: integrationResponse('The integration'),
  },
  {
    method: 'post',
    path: '/integrations/:id/rotate-key',
    tag,
    summary: 'Give an integration a new routing key',
    body: rotateRoutingKeyBodySchema,
    bodyOptional: true,
    ifMatch: true,
    description:
      'The new key is in this answer only. The replaced key keeps working for `grace_seconds` (default one day), so senders can be moved over; then it is refused like any unknown key.',
    response: integrationResponse('The integration and its new routing key, shown once', integrationWithKeySchema),
  },
  {
    method: 'post',
    path: '/integrations/:id/revoke-key',
    tag,
    summary: "Revoke an integration's routing keys",
    ifMatch: true,
    description: 'The current key and any replaced one still in its grace are refused from now on, until a rotation.',
    response: integrationResponse('The integration'),
  },
  {
    method: 'delete',
    path: '/integrations/:id',
    tag,
    summary: 'Delete an integration',
    ifMatch: true,
    description: 'Its keys stop working; its incidents stay as they are. Its history stays readable.',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'Deleted',
      data: z.object({ id: resourceId, deleted: z.literal(true) }),
    },
  },
  {
    method: 'get',
    path: '/integrations/:id/events',
    tag,
    summary: "An integration's raw event history",
    description:
      'Needs `audit:read`. Oldest first: who created, changed, rotated, revoked or deleted it, and when (never a key).',
    response: {
      kind: 'envelope',
      status: 200,
      description: "Every event of the integration's settings stream, oldest first",
      data: z.array(historyEntrySchema),
    },
  },
  {
    method: 'get',
    path: '/change-events',
    tag,
    summary: 'List change events',
    description: 'What integrations reported at `/v2/change/enqueue`, newest first: on the record, paging nobody.',
    query: { integration_id: z.uuid().optional().meta({ description: "only this integration's" }) },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'A page of change events',
      data: changeEventSchema,
      list: true,
    },
  },
  {
    method: 'post',
    path: '/v2/enqueue',
    tag,
    summary: 'Send an alert event (PagerDuty Events API v2, public)',
    description: `${PUBLIC} A \`trigger\` opens an incident of the dedup key on the integration's policy, or, while one is open, adds to its \`alert_count\` and pages nobody; \`acknowledge\` and \`resolve\` act on the open one as the integration; with none open they are accepted and ignored.`,
    body: alertEventSchema,
    response: {
      kind: 'raw',
      status: 202,
      contentType: 'application/json',
      description: '`{"status":"success","message":"Event processed","dedup_key":…}`',
      schema: eventsV2AcceptedSchema,
    },
    otherResponses: eventsRefusals,
  },
  {
    method: 'post',
    path: '/v2/change/enqueue',
    tag,
    summary: 'Send a change event (PagerDuty Events API v2, public)',
    description: `${PUBLIC} Recorded on the tenant's record (GET /change-events), paging nobody.`,
    body: changeEventBodySchema,
    response: {
      kind: 'raw',
      status: 202,
      contentType: 'application/json',
      description: '`{"status":"success","message":"Change event processed"}`',
      schema: eventsV2AcceptedSchema,
    },
    otherResponses: eventsRefusals,
  },
];

// The receivers keyed in their address (commands/receiver-routes.ts): their bodies as their senders send them.
const strings = z.record(z.string(), z.string());
/** Alertmanager's webhook payload version 4 (its `webhook_configs`). */
const alertmanagerWebhookSchema = z.object({
  version: z.literal('4'),
  groupKey: z.string().meta({ description: 'the incident key when the integration has `incident_per: group_key`' }),
  truncatedAlerts: z.number().int().min(0).optional(),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string().optional(),
  groupLabels: strings.optional(),
  commonLabels: strings.optional(),
  commonAnnotations: strings.optional(),
  externalURL: z.string().optional(),
  alerts: z.array(
    z.object({
      status: z.enum(['firing', 'resolved']).meta({ description: '`firing` triggers, `resolved` resolves' }),
      labels: strings.optional().meta({ description: 'kept on the incident; `severity` goes through `severity_map`' }),
      annotations: strings
        .optional()
        .meta({ description: 'kept on the incident; `summary` is its title (else the `alertname` label)' }),
      startsAt: z.string().optional(),
      endsAt: z.string().optional(),
      generatorURL: z.string().optional(),
      fingerprint: z.string().optional().meta({
        description: 'the incident key (required) when the integration has `incident_per: fingerprint`, the default',
      }),
    }),
  ),
});
/** Amazon SNS's HTTP(S) endpoint message (sent as text/plain). */
const snsMessageSchema = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string(),
  TopicArn: z.string(),
  Subject: z.string().optional(),
  Message: z.string().meta({
    description:
      'a Notification: a CloudWatch alarm as JSON (`AlarmName`, `AlarmArn`, `NewStateValue` ALARM triggers, OK resolves, INSUFFICIENT_DATA does nothing, `NewStateReason`, `Region`, `Trigger`)',
  }),
  Timestamp: z.string(),
  SignatureVersion: z.enum(['1', '2']).meta({ description: '1: SHA1withRSA, 2: SHA256withRSA' }),
  Signature: z.string(),
  SigningCertURL: z.string().meta({
    description: 'fetched only from SNS_TRUSTED_URL_PATTERN (production: https://sns.<region>.amazonaws.com/…pem)',
  }),
  SubscribeURL: z.string().optional().meta({ description: 'a SubscriptionConfirmation: visited to confirm' }),
  Token: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
const genericEventSchema = z.unknown().meta({
  description:
    "any JSON: the integration's `config` says where its dedup key, title, severity and action are (JSON Pointers) and what its action words mean",
});

const RECEIVER =
  'No sign-in: the routing key in the address is the credential (a key that routes nowhere, whatever the reason, is the one 404). Refusals are problem+json and change nothing: a payload is read whole before its first alert is taken.';
const receiverProblems = {
  400: "The payload is invalid (each field named by its path), or the integration's kind is another",
  404: 'No integration has this address: never issued, rotated away past its grace, revoked or deleted',
  413: 'A body over 1 MiB',
  415: 'A body not sent as JSON (SNS: text/plain or JSON)',
  429: 'More than INTEGRATION_EVENTS_PER_KEY_PER_MINUTE events to one routing key in a minute, counted with its /v2/enqueue events (Retry-After)',
} as const;
const receiverAccepted = {
  kind: 'raw',
  status: 202,
  contentType: 'application/json',
  description: '`{"status":"accepted","alerts":[{dedup_key, action, outcome, incident_id}]}`: what each alert did',
  schema: receiverAcceptedSchema,
} as const;

integrationOperations.push(
  {
    method: 'post',
    path: '/integrations/alertmanager/:key',
    tag,
    summary: "Prometheus Alertmanager's webhook (public)",
    description: `${RECEIVER} One incident per alert \`fingerprint\` (or per \`groupKey\` with \`incident_per: group_key\`): firing triggers (pages once), resolved resolves; labels and annotations kept on the incident.`,
    body: alertmanagerWebhookSchema,
    problems: receiverProblems,
    response: receiverAccepted,
  },
  {
    method: 'post',
    path: '/integrations/sns/:key',
    tag,
    summary: 'CloudWatch alarms through Amazon SNS (public)',
    description: `${RECEIVER} Every message's signature is checked with the certificate at its SigningCertURL (fetched through the guarded client only from an SNS address, kept); a SubscriptionConfirmation is confirmed by visiting its SubscribeURL (an SNS address only). A Notification carries a CloudWatch alarm: ALARM triggers, OK resolves, the alarm's ARN (else its name) is the dedup key.`,
    body: snsMessageSchema,
    bodyTypes: ['text/plain', 'application/json'],
    problems: {
      ...receiverProblems,
      400: 'The message is invalid, its signature is not valid, its SigningCertURL or SubscribeURL is not an SNS address, a Notification is no CloudWatch alarm, or the integration is of another kind',
      503: 'The signing certificate could not be fetched, or SNS did not take the confirmation (Retry-After; SNS sends again)',
    },
    response: receiverAccepted,
    otherResponses: {
      200: {
        description: 'A SubscriptionConfirmation, confirmed; an UnsubscribeConfirmation, noted (not re-subscribed)',
        contentType: 'application/json',
        schema: snsSubscriptionAnswerSchema,
      },
    },
  },
  {
    method: 'post',
    path: '/integrations/generic/:key',
    tag,
    summary: 'Any JSON (public)',
    description: `${RECEIVER} The integration's \`config\` gives JSON Pointers (RFC 6901) to the dedup key (a string or number), the title (required to trigger), the severity (through \`severity_map\`) and the action (absent: every event triggers), and \`action_map\` from the caller's action words to trigger, acknowledge, resolve. The whole document is kept on the incident as its \`custom_details\`.`,
    body: genericEventSchema,
    problems: receiverProblems,
    response: receiverAccepted,
  },
);
