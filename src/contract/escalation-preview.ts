/**
 * The escalation preview answer (GET /escalation-policies/{id}/preview, POST
 * /escalation-policies/preview): when each stage fires and whom it reaches. Written once here:
 * queries/escalation-preview.ts is typed from it, src/openapi/escalation-preview.ts documents it,
 * the console imports its types.
 */
import { z } from 'zod';
import { instant, resourceId } from './answer-pieces.js';
import { NOTIFY_MEDIA, ON_CALL_SOURCES, TARGET_TYPES } from './vocabulary.js';

const via = z.object({
  type: z.enum(TARGET_TYPES),
  id: resourceId,
  name: z.string().nullable().meta({ description: 'null when the target no longer exists' }),
});
const person = z.object({ id: resourceId, name: z.string() });

export const previewRecipientSchema = z.object({
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
      source: z.enum(ON_CALL_SOURCES),
      layer: z.number().int().optional(),
      override_id: resourceId.optional(),
    })
    .nullable()
    .meta({ description: 'for a schedule target: the layer (index) or override on call when the stage fires' }),
});

export const previewUnreachableSchema = z.object({
  via,
  person: person.nullable(),
  medium: z.enum(NOTIFY_MEDIA).nullable(),
  reason: z.string().meta({ description: 'as the NotificationFailed event will record it, e.g. `nobody is on call`' }),
});

export const escalationPreviewSchema = z.object({
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
        recipients: z.array(previewRecipientSchema),
        unreachable: z.array(previewUnreachableSchema),
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
export type EscalationPreview = z.infer<typeof escalationPreviewSchema>;
export type PreviewStage = EscalationPreview['stages'][number];
export type PreviewRecipient = z.infer<typeof previewRecipientSchema>;
export type PreviewUnreachable = z.infer<typeof previewUnreachableSchema>;
export type PreviewVia = PreviewRecipient['via'];
