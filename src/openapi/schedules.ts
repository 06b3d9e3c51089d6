/** On-call schedules and escalation policies (commands/schedule-routes.ts, escalation-policy-routes.ts, queries/schedules.ts, escalation-policies.ts). */
import { z } from 'zod';
import {
  escalationPolicyBodySchema,
  MAX_MINUTES,
  MAX_STAGES,
  MAX_TARGETS_PER_STAGE,
} from '../contract/bodies/escalation-policies.js';
import { overrideBodySchema, scheduleBodySchema, scheduleChangeBodySchema } from '../contract/bodies/schedules.js';
import { currentOnCallQuery, onCallRangeQuery } from '../../queries/schedules.js';
import { DELIVERY_CHANNELS, TARGET_TYPES } from '../events/escalation-policy.js';
import { escalationPolicySchema } from '../contract/escalation-policies.js';
import {
  currentOnCallSchema,
  onCallRangeSchema,
  schedulePreviewSchema,
  scheduleSchema,
} from '../contract/schedules.js';
import type { OperationDoc } from './operation.js';
import { deletedSchema } from './shared-schemas.js';

/**
 * The policy body as the route parses it, with the rules its refinements check written as JSON
 * Schema: a target of type user, group or schedule needs `channels`, a channel target takes none;
 * the first stage's delay is 0 and every later one's at least 1 (`prefixItems` / `items`). Not
 * expressible here and checked by the route (400): `stage_order` is 1, 2, 3 … in list order, and a
 * stage names each target once.
 */
const targetId = z.uuid();
const deliveryChannels = z.array(z.enum(DELIVERY_CHANNELS)).meta({ uniqueItems: true });
const policyTarget = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('channel'),
    id: targetId,
    channels: deliveryChannels
      .max(0)
      .optional()
      .meta({ description: 'none: the channel itself decides how it delivers' }),
  }),
  z.strictObject({
    type: z.enum(TARGET_TYPES.filter((type) => type !== 'channel')),
    id: targetId,
    channels: deliveryChannels.min(1),
  }),
]);
const policyStage = (delay: z.ZodNumber) =>
  z.strictObject({
    stage_order: z.number().int().min(1).meta({ description: "the stage's place in the list: 1, 2, 3 …" }),
    delay_minutes: delay,
    targets: z
      .array(policyTarget)
      .min(1)
      .max(MAX_TARGETS_PER_STAGE)
      .meta({ description: 'each target (type and id) once' }),
  });
export const escalationPolicyBody = escalationPolicyBodySchema.extend({
  stages: z
    .tuple(
      [
        policyStage(
          z.number().int().min(0).max(0).meta({ description: '0: the first stage fires when the incident is created' }),
        ),
      ],
      policyStage(z.number().int().min(1).max(MAX_MINUTES)),
    )
    .meta({ maxItems: MAX_STAGES, description: 'in order; `stage_order` numbers them 1, 2, 3 …' }),
});

const schedules = 'On-call schedules';
const policies = 'Escalation';
const scheduleAnswer = (description: string, status: 200 | 201 = 200) =>
  ({ kind: 'envelope', status, description, data: scheduleSchema, location: status === 201 }) as const;
const policyAnswer = (description: string, status: 200 | 201 = 200, etag = false) =>
  ({ kind: 'envelope', status, description, data: escalationPolicySchema, etag, location: status === 201 }) as const;

export const scheduleOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/schedules',
    tag: schedules,
    summary: 'List on-call schedules',
    description: 'Newest first.',
    response: { ...scheduleAnswer('A page of schedules'), list: true },
  },
  {
    method: 'post',
    path: '/schedules',
    tag: schedules,
    summary: 'Create an on-call schedule',
    body: scheduleBodySchema,
    response: scheduleAnswer('The schedule', 201),
  },
  {
    method: 'get',
    path: '/schedules/:id',
    tag: schedules,
    summary: 'Get an on-call schedule',
    response: { ...scheduleAnswer('The schedule'), etag: true },
  },
  {
    method: 'put',
    path: '/schedules/:id',
    tag: schedules,
    summary: 'Change some or all fields of an on-call schedule',
    body: scheduleChangeBodySchema,
    ifMatch: true,
    response: scheduleAnswer('The schedule'),
  },
  {
    method: 'delete',
    path: '/schedules/:id',
    tag: schedules,
    summary: 'Delete an on-call schedule',
    ifMatch: true,
    problems: { 409: 'Stale If-Match, or escalation policies target the schedule' },
    response: { kind: 'envelope', status: 200, description: 'Deleted', data: deletedSchema },
  },
  {
    method: 'post',
    path: '/schedules/:id/overrides',
    tag: schedules,
    summary: 'Add an override to a schedule',
    body: overrideBodySchema,
    ifMatch: true,
    response: scheduleAnswer('The schedule', 201),
  },
  {
    method: 'delete',
    path: '/schedules/:id/overrides/:override_id',
    tag: schedules,
    summary: 'Remove an override from a schedule',
    ifMatch: true,
    response: scheduleAnswer('The schedule'),
  },
  {
    method: 'get',
    path: '/schedules/:id/current-oncall',
    tag: schedules,
    summary: 'Who is on call now (or at `at`)',
    query: currentOnCallQuery.shape,
    response: {
      kind: 'envelope',
      bare: true,
      status: 200,
      description: "Who is on call; `current_oncall` is null when nobody is (SPEC.md's top-level fields, no envelope)",
      data: currentOnCallSchema,
    },
  },
  {
    method: 'get',
    path: '/schedules/:id/oncall',
    tag: schedules,
    summary: 'The final schedule over a range (default: a week from now)',
    query: onCallRangeQuery.shape,
    response: { kind: 'envelope', status: 200, description: 'Who is on call when', data: onCallRangeSchema },
  },
  {
    method: 'post',
    path: '/schedules/preview',
    tag: schedules,
    summary: 'Preview an unsaved schedule over a range (default: a week from now)',
    description:
      'Checks the body exactly as a create does and answers what the range query would answer once it is saved; nothing is saved. Needs only schedules:read.',
    body: scheduleBodySchema,
    query: onCallRangeQuery.shape,
    response: { kind: 'envelope', status: 200, description: 'Who would be on call when', data: schedulePreviewSchema },
  },

  {
    method: 'get',
    path: '/escalation-policies',
    tag: policies,
    summary: 'List escalation policies',
    description: 'Newest first.',
    response: { ...policyAnswer('A page of policies'), list: true },
  },
  {
    method: 'post',
    path: '/escalation-policies',
    tag: policies,
    summary: 'Create an escalation policy',
    body: escalationPolicyBody,
    response: policyAnswer('The policy', 201, true),
  },
  {
    method: 'get',
    path: '/escalation-policies/:id',
    tag: policies,
    summary: 'Get an escalation policy',
    response: policyAnswer('The policy', 200, true),
  },
  {
    method: 'put',
    path: '/escalation-policies/:id',
    tag: policies,
    summary: 'Replace an escalation policy',
    body: escalationPolicyBody,
    ifMatch: true,
    response: policyAnswer('The policy', 200, true),
  },
  {
    method: 'delete',
    path: '/escalation-policies/:id',
    tag: policies,
    summary: 'Delete an escalation policy',
    ifMatch: true,
    problems: { 409: 'Stale If-Match, or alert rules use the policy' },
    response: { kind: 'envelope', status: 200, description: 'Deleted', data: deletedSchema },
  },
];
