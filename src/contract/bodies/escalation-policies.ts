/**
 * What clients send to POST and PUT /escalation-policies and POST /escalation-policies/preview
 * (SPEC.md Escalation policy), validated with zod so every problem is reported with its JSON path;
 * unknown fields are rejected everywhere. Whether the targets exist is checked by the routes.
 */
import { z } from 'zod';
import { DELIVERY_CHANNELS, TARGET_TYPES } from '../vocabulary.js';

/**
 * Upper bounds keep a policy something a person can reason about and keep due times far below
 * the ~24.8-day limit of raw timers in the escalation manager. One week per delay is plenty.
 */
export const MAX_STAGES = 20;
export const MAX_TARGETS_PER_STAGE = 50;
export const MAX_MINUTES = 7 * 24 * 60;

const minutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(0, 'must not be negative')
  .max(MAX_MINUTES, `must be at most ${MAX_MINUTES} (one week)`);

const targetSchema = z
  .strictObject({
    type: z.enum(TARGET_TYPES),
    // Lower-cased so lookups in the read models (which hold our lower-case ids) find it.
    id: z.uuid('must be a UUID').transform((id) => id.toLowerCase()),
    channels: z.array(z.enum(DELIVERY_CHANNELS)).optional(),
  })
  .superRefine((target, ctx) => {
    const channels = target.channels ?? [];
    if (target.type === 'channel') {
      // A notification channel already is the delivery medium; email/sms/chat would mean nothing.
      // `[]` is accepted so that a policy read with GET can be sent back unchanged with PUT.
      if (channels.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: ['channels'],
          message: 'not allowed for channel targets: the notification channel itself decides how it delivers',
        });
      return;
    }
    if (channels.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['channels'],
        message: `required for ${target.type} targets: at least one of ${DELIVERY_CHANNELS.join(', ')}`,
      });
    } else if (new Set(channels).size !== channels.length) {
      ctx.addIssue({ code: 'custom', path: ['channels'], message: 'must not list a channel twice' });
    }
  });

const stageSchema = z
  .strictObject({
    stage_order: z.number().int('must be an integer'),
    delay_minutes: minutes,
    targets: z.array(targetSchema).min(1, 'each stage needs at least one target').max(MAX_TARGETS_PER_STAGE),
  })
  .superRefine((stage, ctx) => {
    // The same target twice in one stage would notify it twice.
    const seen = new Map<string, number>();
    stage.targets.forEach((target, index) => {
      const key = `${target.type}/${target.id}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['targets', index],
          message: `duplicate of targets/${first} (same type and id)`,
        });
    });
  });

const stagesSchema = z
  .array(stageSchema)
  .min(1, 'at least one stage is required')
  .max(MAX_STAGES)
  .superRefine((stages, ctx) => {
    stages.forEach((stage, index) => {
      if (stage.stage_order !== index + 1) {
        // A fractional stage_order was already reported as such.
        if (Number.isInteger(stage.stage_order)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'stage_order'],
            message: `must be ${index + 1}: stages are numbered 1, 2, 3 … in the order they are listed, without gaps`,
          });
        }
        // Which delay a misnumbered stage needs is unclear until its number is fixed.
        return;
      }
      // Stage 1 fires when the incident is created (SPEC.md, Escalation timing); a later stage
      // with no delay would fire together with its predecessor and should be merged into it.
      // Delays that are negative or fractional were already reported by `minutes`.
      if (index === 0 && stage.delay_minutes > 0) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'delay_minutes'],
          message: 'must be 0: the first stage fires as soon as the incident is created',
        });
      }
      if (index > 0 && stage.delay_minutes === 0) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'delay_minutes'],
          message: 'must be at least 1 for every stage after the first',
        });
      }
    });
  });

export const escalationPolicyBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  description: z.string().trim().max(2000).nullable().optional(),
  stages: stagesSchema,
  repeat_interval_minutes: minutes.default(0),
});
