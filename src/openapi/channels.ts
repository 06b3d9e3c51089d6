/** Notification channels (commands/channel-routes.ts, queries/channels.ts). */
import { z } from 'zod';
import { channelConfigSchemas } from '../../commands/channels.js';
import { channelBodySchema } from '../contract/bodies/channels.js';
import { channelSchema, channelTestResultSchema, rotatedSecretSchema } from '../contract/channels.js';
import { CHANNEL_TYPES } from '../events/vocabulary.js';
import { nonEmptyBody } from '../contract/bodies/non-empty-body.js';
import type { OperationDoc } from './operation.js';
import { deletedSchema, historyEntrySchema } from './shared-schemas.js';

const tag = 'Notification channels';

/** The body the routes parse (channelBodySchema), with `config` shown per type (channelConfigSchemas). */
const channelBody = channelBodySchema.extend({
  config: z
    .union(CHANNEL_TYPES.map((type) => channelConfigSchemas[type].meta({ title: `${type} config` })))
    .meta({ description: 'per `type`; unknown fields are refused' }),
});

export const channelOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/notification-channels',
    tag,
    summary: 'List notification channels',
    description: 'Newest first; secrets masked.',
    query: { type: z.enum(CHANNEL_TYPES).meta({ description: 'only channels of this type' }) },
    response: { kind: 'envelope', status: 200, description: 'A page of channels', data: channelSchema, list: true },
  },
  {
    method: 'post',
    path: '/notification-channels',
    tag,
    summary: 'Create a notification channel',
    body: channelBody,
    response: {
      kind: 'envelope',
      status: 201,
      description: 'The channel',
      data: channelSchema,
      etag: true,
      location: true,
    },
  },
  {
    method: 'get',
    path: '/notification-channels/:id',
    tag,
    summary: 'Get a notification channel',
    response: { kind: 'envelope', status: 200, description: 'The channel', data: channelSchema, etag: true },
  },
  {
    method: 'put',
    path: '/notification-channels/:id',
    tag,
    summary: 'Change some or all fields of a notification channel',
    body: nonEmptyBody(channelBody.partial()),
    ifMatch: true,
    description:
      'Fields left out keep their value; a `config` sent replaces the stored one whole and must fit the type (a new `type` needs its `config`). ' +
      'A masked secret sent back unchanged keeps the stored one, as long as the destination is unchanged.',
    response: { kind: 'envelope', status: 200, description: 'The channel', data: channelSchema, etag: true },
  },
  {
    method: 'delete',
    path: '/notification-channels/:id',
    tag,
    summary: 'Delete a notification channel',
    ifMatch: true,
    problems: { 409: 'Stale If-Match, or escalation policies reference the channel (`referenced_by`)' },
    response: { kind: 'envelope', status: 200, description: 'Deleted', data: deletedSchema, etag: true },
  },
  {
    method: 'post',
    path: '/notification-channels/:id/rotate-secret',
    tag,
    summary: "Rotate a webhook channel's signing secret",
    ifMatch: true,
    description: 'The old secret stops working at once; the new one is shown once, here.',
    problems: { 409: 'Stale If-Match, or the channel is not a webhook channel' },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The new secret',
      data: rotatedSecretSchema,
      etag: true,
    },
  },
  {
    method: 'post',
    path: '/notification-channels/:id/test',
    tag,
    summary: 'Send a test alert through the channel',
    description: 'A downstream failure is still a 200: the answer says what the destination did.',
    response: {
      kind: 'envelope',
      bare: true,
      status: 200,
      description: 'What came of the test: top-level `success` is the downstream outcome (no envelope)',
      data: channelTestResultSchema,
    },
  },
  {
    method: 'get',
    path: '/notification-channels/:id/events',
    tag,
    summary: "A channel's raw event history, test sends included",
    description:
      'Needs `audit:read`. Oldest first; config secrets masked as in other answers, the signing secret left out.',
    response: {
      kind: 'envelope',
      status: 200,
      description: "Every event of the channel's stream, oldest first",
      data: z.array(historyEntrySchema),
    },
  },
];
