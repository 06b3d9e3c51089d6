/** The escalation preview (queries/escalation-preview.ts, escalation-preview-view.ts). */
import { z } from 'zod';
import { MAX_PREVIEW_CYCLES } from '../process/escalation/escalation-preview.js';
import { DELIVERY_CHANNELS, TARGET_TYPES } from '../events/escalation-policy.js';
import { NOTIFY_MEDIA } from '../events/vocabulary.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';
import { escalationPolicyBody } from './schedules.js';
import { instant, resourceId } from './shared-schemas.js';

const previewQuery = {
  at: instant.meta({ description: 'the trigger instant, ISO 8601 with an offset or `Z` (default now)' }),
  cycles: z
    .number()
    .int()
    .min(1)
    .max(MAX_PREVIEW_CYCLES)
    .meta({
      description: `cycles of a repeating policy to list, 1 to ${MAX_PREVIEW_CYCLES} (default 1; a policy without repeats has one)`,
    }),
};

const via = z.object({
  type: z.enum(TARGET_TYPES),
  id: resourceId,
  name: z.string().nullable().meta({ description: 'null when the target no longer exists' }),
});
const person = z.object({ id: resourceId, name: z.string() });

const recipient = z.object({
  person: person.nullable().meta({ description: 'the user reached; null for a notification channel' }),
  channel: z.object({ id: resourceId, name: z.string().nullable(), type: z.enum(NOTIFY_MEDIA) }).nullable(),
  medium: z.enum(NOTIFY_MEDIA),
  address: z.string().meta({
    description:
      "masked: `a***@example.com`, `+44*******123`; a chat channel's channel name, a webhook's scheme and host, a pager's masked key",
  }),
  delivery_target: z
    .string()
    .meta({ description: "what the delivery's NotificationDelivered event will name as `target`" }),
  via,
  why: z.string().meta({
    description: 'e.g. `member of group Ops`, `on call for schedule Primary via layer 0`, `named by the stage`',
  }),
  on_call: z
    .object({
      source: z.enum(['layer', 'override']),
      layer: z.number().int().optional(),
      override_id: resourceId.optional(),
    })
    .nullable()
    .meta({ description: 'for a schedule target: the layer (index) or override on call when the stage fires' }),
});

const unreachable = z.object({
  via,
  person: person.nullable(),
  medium: z.enum(NOTIFY_MEDIA).nullable(),
  reason: z.string().meta({ description: 'as the NotificationFailed event will record it, e.g. `nobody is on call`' }),
});

const previewSchema = z.object({
  policy: z.object({ id: resourceId.nullable().meta({ description: 'null for an unsaved body' }), name: z.string() }),
  at: instant,
  repeat_interval_minutes: z.number().int(),
  stages: z
    .array(
      z.object({
        stage_order: z.number().int(),
        cycle: z.number().int().meta({ description: '0 for the first pass, then 1, 2 … for repeats' }),
        fires_at: instant,
        offset_minutes: z.number().int().meta({ description: 'minutes after the trigger' }),
        recipients: z.array(recipient),
        unreachable: z.array(unreachable),
      }),
    )
    .meta({ description: 'in firing order' }),
  repeat: z
    .object({
      interval_minutes: z.number().int(),
      next_cycle: z.number().int(),
      next_cycle_at: instant,
      description: z.string(),
    })
    .nullable()
    .meta({ description: 'how the escalation goes on after the cycles listed; null when the policy does not repeat' }),
});

const description =
  "For an incident triggered at `at`: when each stage fires and whom it reaches, resolved by the escalation manager's own target " +
  "resolution at the stage's fire time (a schedule gives whoever is on call then). Users, groups and channels are read as they are now. " +
  `Nothing is sent and nothing is recorded. Delivery channels of person targets: ${DELIVERY_CHANNELS.join(', ')}.`;

const previewProblems = {
  422: 'The preview would cost more work units than ESCALATION_PREVIEW_WORK_UNITS allows (the detail names the limit and the figure; `work_units`, `limit_value`): ask for fewer cycles or fewer schedule targets',
  429: HEAVY_REQUESTS_429,
};

export const escalationPreviewOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/escalation-policies/:id/preview',
    tag: 'Escalation',
    summary: 'Who gets paged: a saved policy',
    description,
    query: previewQuery,
    problems: previewProblems,
    response: { kind: 'envelope', status: 200, description: 'The preview', data: previewSchema },
  },
  {
    method: 'post',
    path: '/escalation-policies/preview',
    tag: 'Escalation',
    summary: 'Who gets paged: an unsaved policy',
    description: `${description} The body is validated as create validates it (400 with the same field errors, unknown targets included).`,
    query: previewQuery,
    body: escalationPolicyBody,
    problems: previewProblems,
    response: { kind: 'envelope', status: 200, description: 'The preview', data: previewSchema },
  },
];
