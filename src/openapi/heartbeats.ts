/** Heartbeat monitors (commands/heartbeat-routes.ts, commands/heartbeat-ping-routes.ts, queries/heartbeats.ts; docs/heartbeats.md). */
import { z } from 'zod';
import { MAX_PING_BODY_BYTES } from '../../commands/heartbeat-ping-routes.js';
import { heartbeatBodySchema } from '../contract/bodies/heartbeats.js';
import { heartbeatSchema, heartbeatWithAddressSchema, pingAnswerSchema } from '../contract/heartbeats.js';
import type { OperationDoc, SuccessDoc } from './operation.js';
import { historyEntrySchema, resourceId } from './shared-schemas.js';

const tag = 'Heartbeats';

const heartbeatResponse = (description: string, data: z.ZodType = heartbeatSchema, status: 200 | 201 = 200) =>
  ({
    kind: 'envelope',
    status,
    description,
    data,
    etag: true,
    ...(status === 201 ? { location: true } : {}),
  }) as const;

const BODY_RULES =
  '`interval_seconds` 60 s to 31 days; `grace_seconds` 0 to 7 days (default 300); `escalation_policy_id` must be a policy of the tenant; ' +
  "the name must not be another heartbeat's of the tenant (case ignored: 409).";

/** What a ping may send: `status` and `message` (also as query parameters), or any text as the message. */
const pingBodySchema = z.object({
  status: z.enum(['success', 'fail']).optional(),
  message: z.string().optional().meta({ description: 'kept cut to 500 characters' }),
});

const PING =
  `No sign-in: the token in the address is the credential. A wrong, rotated-away or revoked token, or one of a deleted heartbeat, gets the same 404 as one never issued; no answer names the heartbeat or its tenant. ` +
  "`status=fail` (query or JSON body) is a failed run and pages at once (the message is the incident's detail); any other ping records the run and resolves the heartbeat's open incident. " +
  `A \`message\` (query, JSON \`message\`, or a text body) is kept, cut to 500 characters; the body is read up to ${MAX_PING_BODY_BYTES} bytes (413 beyond). ` +
  'Known senders are read as they send: an EventBridge event of the Redshift Data API (`detail-type` "Redshift Data Statement Status Change") is a failed run unless `detail.state` is FINISHED; ' +
  'a dbt Cloud webhook `job.run.errored` is a failed run, `job.run.completed` a good one only when `data.runStatus` is "Success". ' +
  'At most HEARTBEAT_PINGS_PER_ADDRESS_PER_MINUTE pings (default 20) per address per minute: 429 with Retry-After beyond.';
const pingQuery = {
  status: z.enum(['success', 'fail']).optional().meta({ description: '`fail`: the run failed (pages at once)' }),
  message: z.string().optional().meta({ description: 'a short note, kept cut to 500 characters' }),
};
const pingProblems = {
  400: '`status` other than success or fail',
  404: 'No heartbeat has this ping address (the same answer for every address that pings nothing)',
  413: `A body over ${MAX_PING_BODY_BYTES} bytes`,
  429: 'Too many pings to this address (Retry-After)',
} as const;

/** Both ping methods answer the same. */
const pingTaken: SuccessDoc = {
  kind: 'raw',
  status: 200,
  contentType: 'application/json',
  description: 'The ping was taken',
  schema: pingAnswerSchema,
};

export const heartbeatOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/heartbeats',
    tag,
    summary: 'List heartbeats',
    description:
      'Newest first, with where each stands now (`status`) and its last ping. Ping addresses are never listed.',
    response: { kind: 'envelope', status: 200, description: 'A page of heartbeats', data: heartbeatSchema, list: true },
  },
  {
    method: 'post',
    path: '/heartbeats',
    tag,
    summary: 'Create a heartbeat',
    body: heartbeatBodySchema,
    description: `A missed ping (none for interval + grace) opens an incident on the policy; \`status=fail\` pages at once; the next ping resolves it. The answer carries the ping address (\`ping_url\`, \`token\`): shown this once. ${BODY_RULES}`,
    response: heartbeatResponse('The heartbeat and its ping address, shown once', heartbeatWithAddressSchema, 201),
  },
  {
    method: 'get',
    path: '/heartbeats/:id',
    tag,
    summary: 'Get a heartbeat',
    response: heartbeatResponse('The heartbeat'),
  },
  {
    method: 'put',
    path: '/heartbeats/:id',
    tag,
    summary: 'Replace a heartbeat',
    body: heartbeatBodySchema,
    ifMatch: true,
    description: `Disabling resolves its open incident; enabling starts the clock anew. ${BODY_RULES}`,
    problems: { 409: 'Another heartbeat of the tenant has this name' },
    response: heartbeatResponse('The heartbeat'),
  },
  {
    method: 'post',
    path: '/heartbeats/:id/rotate-token',
    tag,
    summary: 'Give a heartbeat a new ping address',
    ifMatch: true,
    description:
      'The old address is refused from now on (404, like any unknown one). The new one is in this answer only.',
    response: heartbeatResponse('The heartbeat and its new ping address, shown once', heartbeatWithAddressSchema),
  },
  {
    method: 'post',
    path: '/heartbeats/:id/revoke-token',
    tag,
    summary: "Revoke a heartbeat's ping address",
    ifMatch: true,
    description:
      'Every ping is refused from now on, until a rotation gives a new address. The heartbeat keeps watching: silence still pages (disable it to stop that).',
    response: heartbeatResponse('The heartbeat'),
  },
  {
    method: 'delete',
    path: '/heartbeats/:id',
    tag,
    summary: 'Delete a heartbeat',
    ifMatch: true,
    description: 'Its address stops working and its open incident resolves. Its history stays readable.',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'Deleted',
      data: z.object({ id: resourceId, deleted: z.literal(true) }),
    },
  },
  {
    method: 'get',
    path: '/heartbeats/:id/events',
    tag,
    summary: "A heartbeat's raw event history",
    description:
      'Needs `audit:read`. Oldest first: who created, changed, rotated, revoked or deleted it, and when (never a token).',
    response: {
      kind: 'envelope',
      status: 200,
      description: "Every event of the heartbeat's settings stream, oldest first",
      data: z.array(historyEntrySchema),
    },
  },
  {
    method: 'get',
    path: '/hb/:token',
    tag,
    summary: 'Ping a heartbeat (public)',
    description: PING,
    query: pingQuery,
    problems: pingProblems,
    response: pingTaken,
  },
  {
    method: 'post',
    path: '/hb/:token',
    tag,
    summary: 'Ping a heartbeat (public)',
    description: PING,
    query: pingQuery,
    body: pingBodySchema,
    bodyOptional: true,
    bodyTypes: ['application/json', 'text/plain'],
    problems: pingProblems,
    response: pingTaken,
  },
];
